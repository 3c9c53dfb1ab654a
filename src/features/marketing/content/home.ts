// Copy of the home page (spec 2.3 and the marketing claims of section 1).
import { Activity, Globe, ShieldCheck, Zap } from "lucide-react";

export const HERO_STATS = [
  { value: "100+", label: "countries" },
  { value: "99.9%", label: "uptime" },
  { value: "<100ms", label: "response time" },
  { value: "24/7", label: "support" },
] as const;

export const WHY_CHOOSE = [
  {
    icon: Globe,
    title: "Global Coverage",
    text: "IPs in 100+ countries with city-level targeting, so you see every page exactly as your local customers do.",
  },
  {
    icon: Activity,
    title: "99.9% Uptime",
    text: "A redundant network monitored around the clock, with 24 hours' notice before any planned maintenance.",
  },
  {
    icon: Zap,
    title: "Lightning Fast",
    text: "Response under 100ms on our datacenter network and optimised routing on every residential request.",
  },
  {
    icon: ShieldCheck,
    title: "Enterprise Security",
    text: "IP whitelisting, authenticated access and audit logs for every change made to your account.",
  },
] as const;
