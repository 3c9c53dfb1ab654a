// Stripe payments for the e2e shop, written straight in its data.db with python3's sqlite3.
// The e2e shop buys credits with the test provider (no Stripe keys, so its webhook route is
// closed), and test payments earn no commission (security review #13, finding 2); specs
// that need a real payment, its commission or a Stripe refund get them here, row for row as
// the hooks write them:
// - stripePayment: lib/money/payments.js completePayment (payment paid, CREDIT rows for the
//   credits and the bonus, the balance) and lib/affiliate/affiliate.js recordCommission (20% pending
//   commission, the referral's and the affiliate's sums);
// - stripeRefund: lib/money/payments.js reversePayment for charge.refunded (refunded_cents, the
//   status, a DEBIT of the credits' share that may leave a debt) and lib/affiliate/affiliate.js
//   reverseCommission (an unpaid commission shrinks; a paid one gets a clawback row);
// - legacyTestCommission: a commission a test payment earned before finding 2, as the
//   migration 1764400100_payment_reversals.js leaves it (reversed, out of the sums).
import { execFileSync } from "node:child_process";
import path from "node:path";

/** The credit packages of lib/money/payments.js PACKAGES. */
export const PACKAGES = {
  "package-10": { price: 1000, credits: 1000, bonus: 0 },
  "package-25": { price: 2400, credits: 2500, bonus: 100 },
  "package-50": { price: 4500, credits: 5000, bonus: 500 },
  "package-100": { price: 8500, credits: 10000, bonus: 1500 },
} as const;

const SCRIPT = String.raw`
import json, random, sqlite3, string, sys
from datetime import datetime, timezone

db = sqlite3.connect(sys.argv[1], timeout=10)
op = sys.argv[2]
args = json.loads(sys.argv[3])

def new_id():
    return ''.join(random.choice(string.ascii_lowercase + string.digits) for _ in range(15))

def now():
    d = datetime.now(timezone.utc)
    return d.strftime('%Y-%m-%d %H:%M:%S.') + '%03dZ' % (d.microsecond // 1000)

def usd(cents):
    return ('-' if cents < 0 else '') + '$' + format(abs(cents) / 100, ',.2f')

def one(sql, params=()):
    return db.execute(sql, params).fetchone()

def ledger(user_id, type_, cents, description, reference, intent=''):
    row = one('SELECT id, balance_cents FROM balances WHERE user_id = ?', (user_id,))
    t = now()
    if row is None:
        db.execute('INSERT INTO balances (id, user_id, balance_cents, created, updated) VALUES (?, ?, 0, ?, ?)', (new_id(), user_id, t, t))
        row = one('SELECT id, balance_cents FROM balances WHERE user_id = ?', (user_id,))
    after = row[1] + cents
    db.execute('UPDATE balances SET balance_cents = ?, updated = ? WHERE id = ?', (after, t, row[0]))
    db.execute('''INSERT INTO transactions (id, user_id, type, amount_cents, balance_after_cents, description,
        stripe_payment_intent_id, reference, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)''',
        (new_id(), user_id, type_, cents, after, description, intent, reference, t, t))

def sums(commission, delta):
    # The referral's and the affiliate's figures follow a commission change of -delta.
    t = now()
    db.execute('UPDATE referrals SET commission_cents = commission_cents - ?, updated = ? WHERE id = ?', (delta, t, commission['referral_id']))
    db.execute('''UPDATE affiliates SET pending_earnings_cents = pending_earnings_cents - ?,
        total_earnings_cents = total_earnings_cents - ?, updated = ? WHERE id = ?''', (delta, delta, t, commission['affiliate_id']))

if op == 'pay':
    user_id, pkg = args['userId'], args['package']
    pid = new_id()
    t = now()
    intent = 'pi_e2e_' + pid
    db.execute('''INSERT INTO payments (id, user_id, package_id, amount_cents, currency, credits_cents, bonus_cents, provider,
        provider_session_id, provider_payment_id, status, paid_at, idempotency_key, created, updated)
        VALUES (?, ?, ?, ?, 'usd', ?, ?, 'stripe', ?, ?, 'paid', ?, ?, ?, ?)''',
        (pid, user_id, args['packageId'], pkg['price'], pkg['credits'], pkg['bonus'], 'cs_e2e_' + pid, intent, t, 'e2e-' + pid, t, t))
    ledger(user_id, 'CREDIT', pkg['credits'], 'Purchased the %s Credits package for %s' % (usd(pkg['credits']), usd(pkg['price'])),
        'payment:' + pid, intent)
    if pkg['bonus'] > 0:
        ledger(user_id, 'CREDIT', pkg['bonus'], 'Bonus credits with the %s Credits package' % usd(pkg['credits']), 'payment-bonus:' + pid)
    referral = one('SELECT r.id, r.affiliate_id, a.user_id FROM referrals r JOIN affiliates a ON a.id = r.affiliate_id WHERE r.referred_user_id = ?', (user_id,))
    amount = pkg['price'] * 20 // 100
    if referral is not None and referral[2] != user_id and amount >= 1:
        db.execute('''INSERT INTO commissions (id, affiliate_id, referral_id, payment_id, amount_cents, status, reversed_cents, reference, created, updated)
            VALUES (?, ?, ?, ?, ?, 'pending', 0, '', ?, ?)''', (new_id(), referral[1], referral[0], pid, amount, t, t))
        db.execute("UPDATE referrals SET commission_cents = commission_cents + ?, status = 'pending', updated = ? WHERE id = ?", (amount, t, referral[0]))
        db.execute('''UPDATE affiliates SET pending_earnings_cents = pending_earnings_cents + ?,
            total_earnings_cents = total_earnings_cents + ?, updated = ? WHERE id = ?''', (amount, amount, t, referral[1]))
    print(json.dumps({'paymentId': pid}))

elif op == 'refund':
    pid, total = args['paymentId'], args['refundedCents']
    p = one('SELECT user_id, amount_cents, credits_cents, bonus_cents, refunded_cents FROM payments WHERE id = ?', (pid,))
    user_id, amount, credited, before = p[0], p[1], p[2] + p[3], p[4]
    if total <= before:
        raise SystemExit('the payment was already refunded that much')
    t = now()
    status = 'refunded' if total >= amount else 'partially_refunded'
    db.execute("UPDATE payments SET refunded_cents = ?, status = ?, reversed_at = CASE WHEN reversed_at = '' THEN ? ELSE reversed_at END, updated = ? WHERE id = ?",
        (total, status, t, t, pid))
    reversed_so_far = -one("SELECT COALESCE(SUM(amount_cents), 0) FROM transactions WHERE user_id = ? AND reference LIKE ?", (user_id, 'reversal:%s:%%' % pid))[0]
    by_refunds = -one("SELECT COALESCE(SUM(amount_cents), 0) FROM transactions WHERE user_id = ? AND reference LIKE ?", (user_id, 'reversal:%s:refund:%%' % pid))[0]
    share = min(credited, int((credited * min(total, amount) / amount) + 0.5))
    cents = min(share - by_refunds, credited - reversed_so_far)
    if cents >= 1:
        label = 'Payment refunded by Stripe' if total >= amount else 'Payment partly refunded by Stripe'
        ledger(user_id, 'DEBIT', -cents, '%s (payment %s): %s in credits reversed' % (label, pid[:8].upper(), usd(cents)), 'reversal:%s:refund:%d' % (pid, total))
    c = one("SELECT id, affiliate_id, referral_id, amount_cents, reversed_cents, status FROM commissions WHERE payment_id = ? AND reference = ''", (pid,))
    if c is not None:
        commission = {'id': c[0], 'affiliate_id': c[1], 'referral_id': c[2]}
        original, reversed_cents, cstatus = c[3], c[4], c[5]
        extra = one("SELECT COALESCE(SUM(amount_cents), 0) FROM commissions WHERE payment_id = ? AND reference != ''", (pid,))[0]
        target = min(original, int(original * total / amount + 0.5))
        delta = target - (reversed_cents - extra)
        if delta > 0 and cstatus == 'pending':
            db.execute('UPDATE commissions SET reversed_cents = ?, status = ?, updated = ? WHERE id = ?',
                (reversed_cents + delta, 'reversed' if reversed_cents + delta >= original else 'pending', t, c[0]))
            sums(commission, delta)
        elif delta > 0:
            db.execute('''INSERT INTO commissions (id, affiliate_id, referral_id, payment_id, amount_cents, status, reversed_cents, reference, created, updated)
                VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)''', (new_id(), c[1], c[2], pid, -delta, 'refund:%d' % total, t, t))
            sums(commission, delta)
    print(json.dumps({'paymentId': pid}))

elif op == 'legacy-test-commission':
    pid = args['paymentId']
    p = one("SELECT user_id, amount_cents FROM payments WHERE id = ? AND provider = 'test'", (pid,))
    referral = one('SELECT id, affiliate_id FROM referrals WHERE referred_user_id = ?', (p[0],))
    amount = p[1] * 20 // 100
    t = now()
    db.execute('''INSERT INTO commissions (id, affiliate_id, referral_id, payment_id, amount_cents, status, reversed_cents, reference, created, updated)
        VALUES (?, ?, ?, ?, ?, 'reversed', ?, '', ?, ?)''', (new_id(), referral[1], referral[0], pid, amount, amount, t, t))
    print(json.dumps({'paymentId': pid}))

db.commit()
`;

function run(op: string, args: Record<string, unknown>): { paymentId: string } {
  const dataDir = process.env["E2E_DATA_DIR"];
  if (!dataDir) throw new Error("E2E_DATA_DIR is not set: the e2e global setup sets it for the workers.");
  const out = execFileSync("python3", ["-c", SCRIPT, path.join(dataDir, "data.db"), op, JSON.stringify(args)], { encoding: "utf8" });
  return JSON.parse(out) as { paymentId: string };
}

/** A paid Stripe payment of `userId` for a credit package: credits, bonus and (when referred) the affiliate's commission. */
export function stripePayment(userId: string, packageId: keyof typeof PACKAGES): string {
  return run("pay", { userId, packageId, package: PACKAGES[packageId] }).paymentId;
}

/** Stripe refunded `refundedCents` of the payment so far (cumulative, as charge.refunded says). */
export function stripeRefund(paymentId: string, refundedCents: number): void {
  run("refund", { paymentId, refundedCents });
}

/** A commission that the test payment `paymentId` earned before test payments stopped earning, as the migration left it. */
export function legacyTestCommission(paymentId: string): void {
  run("legacy-test-commission", { paymentId });
}
