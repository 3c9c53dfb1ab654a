import datetime
def check(con):
    problems = []
    def problem(text):
        problems.append(text)

    def q(sql, params=()):
        return [dict(r) for r in con.execute(sql, params).fetchall()]

    def parse_time(text):
        try:
            return datetime.datetime.strptime(text[:19], "%Y-%m-%d %H:%M:%S").replace(tzinfo=datetime.timezone.utc)
        except Exception:
            return None

    now = datetime.datetime.now(datetime.timezone.utc)
    TERM = datetime.timedelta(days=30)
    SIGN = {"CREDIT": 1, "REFUND": 1, "DEBIT": -1, "PROXY_PURCHASE": -1}

    users = {r["id"] for r in q("SELECT id FROM users")}
    balances = {}
    for r in q("SELECT id, user_id, balance_cents FROM balances"):
        if r["user_id"] in balances:
            problem(f"user {r['user_id']} has two balance rows")
        balances[r["user_id"]] = r["balance_cents"]
    for u in sorted(users - set(balances)):
        problem(f"user {u} has no balance row")
    for u in sorted(set(balances) - users):
        problem(f"balance row of a user that does not exist: {u}")
    reversal_users = {r["user_id"] for r in q("SELECT DISTINCT user_id FROM transactions WHERE reference LIKE 'reversal:%'")}
    for u, b in balances.items():
        if not isinstance(b, int) or (b < 0 and u not in reversal_users):
            problem(f"balance of {u} is {b!r}: negative or not whole cents")

    ledger = q("SELECT rowid AS seq, id, user_id, type, amount_cents, balance_after_cents, stripe_payment_intent_id AS intent, reference FROM transactions ORDER BY rowid")
    ledger_by_id = {r["id"]: r for r in ledger}
    by_reference = {}
    running = {}
    for r in ledger:
        u, t, a = r["user_id"], r["type"], r["amount_cents"]
        if t not in SIGN:
            problem(f"ledger row {r['id']} has unknown type {t!r}")
        elif not isinstance(a, int) or a == 0 or (a > 0) != (SIGN[t] > 0):
            problem(f"ledger row {r['id']} ({t}) has amount {a!r}: wrong sign, zero or not whole cents")
        if u not in users:
            problem(f"ledger row {r['id']} belongs to a user that does not exist: {u}")
        expected = running.get(u, 0) + (a if isinstance(a, int) else 0)
        running[u] = expected
        if r["balance_after_cents"] != expected:
            problem(f"ledger row {r['id']} of {u}: balance_after_cents {r['balance_after_cents']} but the rows before it sum to {expected}")
        ref = r["reference"] or ""
        if expected < 0 and not (ref.startswith("reversal:") or (isinstance(a, int) and a > 0)):
            problem(f"ledger of {u} goes below zero at row {r['id']} ({expected})")
        if not ref:
            problem(f"ledger row {r['id']} of {u} has no reference: nothing says what moved this money")
        elif (u, ref) in by_reference:
            problem(f"user {u} has two ledger rows with reference {ref}")
        else:
            by_reference[(u, ref)] = r
    for u, total in running.items():
        if balances.get(u, 0) != total:
            problem(f"balance of {u} is {balances.get(u)} but its ledger rows sum to {total}")

    orders = {r["id"]: r for r in q("SELECT rowid AS seq, id, user_id, kind, quantity, total_cents, items, transaction_id, status, refunded_at, created FROM proxy_orders ORDER BY rowid")}
    payments = {r["id"]: r for r in q("SELECT id, user_id, amount_cents, credits_cents, bonus_cents, provider, provider_payment_id, status, paid_at FROM payments")}
    CREDITED = ("paid", "partially_refunded", "refunded", "disputed")
    reversed_of = {}
    adjustment_audits = {}
    admin_credited = admin_debited = 0
    for r in q("SELECT action, target_id, details FROM audit_logs WHERE action IN ('users.balance_credit', 'users.balance_debit')"):
        try:
            d = json.loads(r["details"] or "{}")
        except Exception:
            d = {}
        tx = d.get("transaction_id")
        amount = d.get("amount_cents")
        if not isinstance(amount, int) or amount <= 0:
            problem(f"audit row {r['action']} for {r['target_id']} has amount {amount!r}")
            continue
        adjustment_audits[tx] = (r["action"], r["target_id"], amount)
        if r["action"] == "users.balance_credit":
            admin_credited += amount
        else:
            admin_debited += amount

    for (u, ref), r in by_reference.items():
        kind, _, target = ref.partition(":")
        if kind == "order":
            o = orders.get(target)
            if not o:
                problem(f"ledger row {r['id']} is for order {target}, which does not exist")
            elif o["user_id"] != u or r["type"] != "PROXY_PURCHASE" or r["amount_cents"] != -o["total_cents"] or o["transaction_id"] != r["id"]:
                problem(f"ledger row {r['id']} ({r['type']} {r['amount_cents']}) does not match order {target} (user {o['user_id']}, total {o['total_cents']}, transaction {o['transaction_id']})")
        elif kind == "refund":
            o = orders.get(target)
            if not o:
                problem(f"refund row {r['id']} is for order {target}, which does not exist")
            elif o["user_id"] != u or r["type"] != "REFUND" or r["amount_cents"] != o["total_cents"] or o["status"] != "refunded":
                problem(f"refund row {r['id']} ({r['type']} {r['amount_cents']}) does not match order {target} (user {o['user_id']}, total {o['total_cents']}, status {o['status']})")
        elif kind in ("payment", "payment-bonus"):
            p = payments.get(target)
            want = None if not p else (p["credits_cents"] if kind == "payment" else p["bonus_cents"])
            if not p:
                problem(f"ledger row {r['id']} is for payment {target}, which does not exist")
            elif p["user_id"] != u or r["type"] != "CREDIT" or r["amount_cents"] != want or p["status"] not in CREDITED:
                problem(f"ledger row {r['id']} ({kind} {r['type']} {r['amount_cents']}) does not match payment {target} (user {p['user_id']}, {want} due, status {p['status']})")
            elif kind == "payment" and r["intent"] != p["provider_payment_id"]:
                problem(f"credit row {r['id']} carries payment id {r['intent']!r} but payment {target} was paid by {p['provider_payment_id']!r}")
        elif kind == "reversal":
            pid = target.partition(":")[0]
            p = payments.get(pid)
            won = ":dispute-won:" in ref
            if not p:
                problem(f"reversal row {r['id']} is for payment {pid}, which does not exist")
            elif p["user_id"] != u or p["provider"] != "stripe" or p["status"] not in CREDITED or r["type"] != ("CREDIT" if won else "DEBIT"):
                problem(f"reversal row {r['id']} ({r['type']} {r['amount_cents']}) does not match payment {pid} (user {p['user_id']}, {p['provider']}, status {p['status']})")
            else:
                reversed_of[pid] = reversed_of.get(pid, 0) - r["amount_cents"]
        elif ref == "welcome":
            if r["type"] != "CREDIT":
                problem(f"welcome row {r['id']} is a {r['type']}")
        elif kind == "adjustment":
            a = adjustment_audits.get(r["id"])
            want_action = "users.balance_credit" if r["type"] == "CREDIT" else "users.balance_debit"
            if r["type"] not in ("CREDIT", "DEBIT"):
                problem(f"admin adjustment row {r['id']} is a {r['type']}")
            elif not a:
                problem(f"admin adjustment row {r['id']} of {u} has no audit row")
            elif a != (want_action, u, abs(r["amount_cents"])):
                problem(f"admin adjustment row {r['id']} ({r['type']} {r['amount_cents']} for {u}) does not match its audit row {a}")
        else:
            problem(f"ledger row {r['id']} has an unknown reference {ref!r}")
    for tx in adjustment_audits:
        if tx not in ledger_by_id:
            problem(f"an admin balance audit row names transaction {tx!r}, which does not exist")

    purchases_of = {}
    for o in orders.values():
        oid, u = o["id"], o["user_id"]
        r = by_reference.get((u, f"order:{oid}"))
        if not r:
            problem(f"order {oid} of {u} has no ledger row")
        try:
            items = json.loads(o["items"] or "[]")
            ids = [str(i["id"]) for i in items]
            total = sum(int(i["unit_price_cents"]) for i in items)
        except Exception:
            problem(f"order {oid} has unreadable items {o['items']!r}")
            continue
        if len(ids) != o["quantity"] or len(set(ids)) != len(ids) or total != o["total_cents"] or total <= 0:
            problem(f"order {oid}: {len(ids)} items ({len(set(ids))} distinct) summing to {total}, but quantity {o['quantity']} and total {o['total_cents']}")
        refunded = (u, f"refund:{oid}") in by_reference
        if o["status"] not in ("completed", "refunded") or (o["status"] == "refunded") != refunded or (o["status"] == "refunded") != bool(o["refunded_at"]):
            problem(f"order {oid} is {o['status']!r} (refunded_at {o['refunded_at']!r}) but {'has' if refunded else 'has no'} refund row")
        if o["kind"] == "purchase":
            for pid in ids:
                purchases_of.setdefault(pid, []).append(o)
        elif o["kind"] == "renewal":
            for pid in ids:
                if not any(p["user_id"] == u and p["seq"] < o["seq"] for p in purchases_of.get(pid, [])):
                    problem(f"renewal {oid} of {u} renews proxy {pid}, which {u} never bought before it")
        else:
            problem(f"order {oid} has unknown kind {o['kind']!r}")

    for pid, cents in reversed_of.items():
        p = payments[pid]
        if cents < 0 or cents > p["credits_cents"] + p["bonus_cents"]:
            problem(f"payment {pid} credited {p['credits_cents'] + p['bonus_cents']} but its reversals total {cents}")
    for p in payments.values():
        paid = p["status"] in CREDITED
        credit = (p["user_id"], f"payment:{p['id']}") in by_reference
        bonus = (p["user_id"], f"payment-bonus:{p['id']}") in by_reference
        if p["status"] not in ("pending", "failed") + CREDITED:
            problem(f"payment {p['id']} has unknown status {p['status']!r}")
        if paid != credit:
            problem(f"payment {p['id']} is {p['status']} but {'has' if credit else 'has no'} credit row")
        if bonus != (paid and p["bonus_cents"] > 0):
            problem(f"payment {p['id']} ({p['status']}, bonus {p['bonus_cents']}) {'has' if bonus else 'has no'} bonus row")
        if paid and (not p["provider_payment_id"] or not p["paid_at"]):
            problem(f"paid payment {p['id']} has no provider payment id or paid_at")

    earned, pending = {}, {}
    for c in q("SELECT id, affiliate_id, payment_id, amount_cents, reversed_cents, reference, status FROM commissions"):
        p = payments.get(c["payment_id"])
        own = (c["reference"] or "") == ""
        if not p or p["status"] not in CREDITED or p["provider"] != "stripe" or (own and c["amount_cents"] != (p["amount_cents"] * 20) // 100):
            problem(f"commission {c['id']} of {c['amount_cents']} is for payment {c['payment_id']} ({p['status'] if p else 'missing'}, {p['provider'] if p else '-'}, {p['amount_cents'] if p else '-'} paid)")
        net = c["amount_cents"] - (c["reversed_cents"] or 0)
        earned[c["affiliate_id"]] = earned.get(c["affiliate_id"], 0) + net
        if c["status"] == "pending":
            pending[c["affiliate_id"]] = pending.get(c["affiliate_id"], 0) + net
    for a in q("SELECT id, total_earnings_cents, pending_earnings_cents FROM affiliates"):
        if a["total_earnings_cents"] != earned.get(a["id"], 0) or a["pending_earnings_cents"] != pending.get(a["id"], 0):
            problem(f"affiliate {a['id']} shows {a['total_earnings_cents']} earned / {a['pending_earnings_cents']} pending, its commissions {earned.get(a['id'], 0)} / {pending.get(a['id'], 0)}")

    for x in q("SELECT id, status, assigned_to_user_id AS owner FROM proxies"):
        pid, owner, status = x["id"], x["owner"] or "", x["status"]
        held = status in ("ASSIGNED", "EXPIRED")
        if held and owner not in users:
            problem(f"proxy {pid} is {status} without an owner who exists ({owner!r})")
        if status == "AVAILABLE" and owner:
            problem(f"proxy {pid} is AVAILABLE but assigned to {owner}")
        bought = purchases_of.get(pid, [])
        latest = bought[-1] if bought else None
        if held and owner:
            if not latest or latest["user_id"] != owner or latest["status"] != "completed":
                problem(f"proxy {pid} is held by {owner} but its latest purchase is {latest['id'] + ' by ' + latest['user_id'] + ' (' + latest['status'] + ')' if latest else 'none'}")
        if latest and latest["status"] == "completed":
            t = parse_time(latest["created"])
            if t and now - t < TERM and not (held and owner == latest["user_id"]):
                problem(f"proxy {pid} was bought by {latest['user_id']} in order {latest['id']} ({latest['created']}) but is {status} for {owner or 'nobody'}")
        for earlier, later in zip(bought, bought[1:]):
            t1, t2 = parse_time(earlier["created"]), parse_time(later["created"])
            if earlier["status"] == "completed" and t1 and t2 and t2 - t1 < TERM:
                problem(f"proxy {pid} sold twice: order {later['id']} of {later['user_id']} while order {earlier['id']} of {earlier['user_id']} runs")

    total_balance = sum(b for b in balances.values() if isinstance(b, int))
    credited = sum(r["amount_cents"] for r in ledger if r["type"] in ("CREDIT", "REFUND"))
    spent = -sum(r["amount_cents"] for r in ledger if r["type"] in ("DEBIT", "PROXY_PURCHASE"))
    if total_balance != credited - spent:
        problem(f"all balances total {total_balance} but the ledger credited {credited} and spent {spent}")
    paid_in = sum(p["credits_cents"] + p["bonus_cents"] for p in payments.values() if p["status"] in CREDITED) - sum(reversed_of.values())
    welcome = sum(r["amount_cents"] for (u, ref), r in by_reference.items() if ref == "welcome")
    refunded = sum(o["total_cents"] for o in orders.values() if o["status"] == "refunded")
    ordered = sum(o["total_cents"] for o in orders.values())
    books = paid_in + welcome + admin_credited + refunded - ordered - admin_debited
    if total_balance != books:
        problem(f"all balances total {total_balance} but the records say {books}: payments {paid_in} + welcome {welcome} + admin credits {admin_credited} + refunds {refunded} - orders {ordered} - admin debits {admin_debited}")

    # API keys' monthly spend caps (issue #18): the orders made with a key (proxy_orders.api_key_id)
    # are its owner's, and in no UTC month do they cost more than the key's cap (refunded ones
    # count: a cap limits what a key may spend, not what it keeps). Databases from before the
    # api_keys migration have nothing to check.
    order_columns = {r["name"] for r in q("PRAGMA table_info(proxy_orders)")}
    if "api_key_id" in order_columns and q("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'api_keys'"):
        keys = {r["id"]: r for r in q("SELECT id, user, name, COALESCE(spend_cap_cents, 0) AS cap FROM api_keys")}
        for r in q("SELECT id, user_id, api_key_id FROM proxy_orders WHERE COALESCE(api_key_id, '') != ''"):
            k = keys.get(r["api_key_id"])
            if k and k["user"] != r["user_id"]:
                problem(f"order {r['id']} of {r['user_id']} was made with API key {r['api_key_id']} of {k['user']}")
        spent_by_key = q("SELECT api_key_id AS key, substr(created, 1, 7) AS month, SUM(total_cents) AS spent, COUNT(*) AS n FROM proxy_orders WHERE COALESCE(api_key_id, '') != '' GROUP BY api_key_id, month")
        for r in spent_by_key:
            k = keys.get(r["key"])
            if k and k["cap"] > 0 and r["spent"] > k["cap"]:
                problem(f"API key {r['key']} ({k['name']}) spent {r['spent']} in {r['n']} orders in {r['month']}, past its monthly spend cap of {k['cap']}")

    out = {"problems": problems, "users": len(users), "ledgerRows": len(ledger), "totalBalanceCents": total_balance}

    return out
