// The proxy products the shop sells, as described on the home page.
import { Globe, House, Server, Smartphone } from "lucide-react";
import { PROXY_TYPE_LABELS as TYPE_LABELS, PROXY_TYPES, type ProxyType } from "@/lib/catalog";

/** "Residential proxies", ..., as plan cards name a plan's type. */
export const PROXY_TYPE_LABELS = Object.fromEntries(PROXY_TYPES.map((t) => [t, `${TYPE_LABELS[t]} proxies`])) as Record<ProxyType, string>;

export const PROXY_PRODUCTS = [
  {
    icon: House,
    title: "Residential Proxies",
    highlight: "99.9% success rate",
    text: "Real household IP addresses from internet service providers, trusted by the sites you work with and ideal for data collection that must not be blocked.",
    features: [
      "99.9% success rate",
      "City-level targeting in 100+ countries",
      "Sticky sessions or rotation on every request",
      "Static residential (ISP) IPs available",
    ],
  },
  {
    icon: Server,
    title: "Datacenter Proxies",
    highlight: "Ultra-fast",
    text: "High-performance IPs hosted in tier-1 data centres, built for speed-sensitive workloads and high request volumes at the lowest cost per proxy.",
    features: ["Ultra-fast, response under 100ms", "Unlimited bandwidth", "Multiple protocols: HTTP, HTTPS and SOCKS5", "IPv4 and IPv6"],
  },
  {
    icon: Smartphone,
    title: "Mobile Proxies",
    highlight: "3G/4G/5G carrier IPs",
    text: "IP addresses from mobile carriers for app testing, social media management and any platform that treats mobile traffic differently.",
    features: ["Carrier-grade IPs", "Automatic rotation", "Country and carrier targeting"],
  },
  {
    icon: Globe,
    title: "HTTP/HTTPS & SOCKS5",
    highlight: "Any protocol, any client",
    text: "Every proxy speaks HTTP, HTTPS and SOCKS5, so it works with browsers, scrapers, headless automation and your own code without adapters.",
    features: ["HTTP/HTTPS and SOCKS5", "IPv4/IPv6", "Username/password or IP whitelisting"],
  },
] as const;
