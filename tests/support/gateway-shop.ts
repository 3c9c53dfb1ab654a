// A shop whose embedded gateway listens on two loopback ports of its own (gatewayPorts), and
// proxies bought on it by a fresh customer each: the fixture of the api and hostile gateway
// tests. Call it at the top of a file (it awaits the ports) like useShop.
import { randomBytes } from "node:crypto";
import { gatewayPorts, type GatewayPorts } from "./gateway-ports.ts";
import { addStock, customer, purchase, type Customer } from "./shop.ts";
import { useShop, type ShopFixture, type ShopSetup } from "./use-shop.ts";

export interface GatewayProxy {
  id: string;
  username: string;
  password: string;
  owner: Customer;
  orderId: string;
}

export interface GatewayShop extends ShopFixture {
  gateway: GatewayPorts;
  /** One proxy of `type` bought by a new customer, from one unit of stock added in a country of its own. */
  buy(type?: string): Promise<GatewayProxy>;
}

/** `useShop` with the gateway's environment first (setup.env may override it). */
export async function useGatewayShop(setup: ShopSetup = {}): Promise<GatewayShop> {
  const gateway = await gatewayPorts();
  const shop = useShop({ ...setup, env: { ...gateway.env, ...setup.env } }) as GatewayShop;
  shop.gateway = gateway;
  shop.buy = async (type = "DATACENTER") => {
    const country = `G${randomBytes(3).toString("hex").slice(0, 5).toUpperCase()}`;
    await addStock(shop, { type, country, count: 1 });
    const owner = await customer(shop, 50_000);
    const res = await purchase(owner.pb, { type, country, quantity: 1 });
    const proxy = res.proxies[0]!;
    return { id: proxy.id, username: proxy.username, password: String(proxy["password"]), owner, orderId: res.order.id };
  };
  return shop;
}
