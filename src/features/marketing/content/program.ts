// Copy of the Partner Programs page (spec 2.8 and the figures of section 9).
import { Code, GraduationCap, Handshake, Link2, Megaphone, Store } from "lucide-react";

export const PROGRAMS = [
  {
    icon: Store,
    title: "Reseller Program",
    highlight: "Up to 40% commission",
    text: "Sell our proxies under your own brand and set your own prices, backed by our network and support.",
    features: ["Up to 40% commission", "White-label dashboard", "Volume discounts", "Dedicated account manager"],
  },
  {
    icon: Link2,
    title: "Referral Program",
    highlight: "20% lifetime commission",
    text: "Share your personal link and earn on every payment your referred customers make, for as long as they stay.",
    features: ["20% lifetime commission", "30-day referral cookie", "Real-time earnings tracking", "Monthly payouts from $50.00"],
  },
  {
    icon: Megaphone,
    title: "Affiliate Program",
    highlight: "Up to 30% commission",
    text: "For publishers, reviewers and creators who reach developers and data teams.",
    features: ["Up to 30% commission", "Marketing materials and banners", "Performance bonuses", "Dedicated affiliate support"],
  },
  {
    icon: Code,
    title: "SDK Partner Program",
    highlight: "Built-in integrations",
    text: "Integrate our proxies into your library, scraping framework or SaaS product and grow together.",
    features: ["Technical integration support", "Co-marketing opportunities", "Early access to new APIs", "Revenue sharing"],
  },
  {
    icon: Handshake,
    title: "Technology Partners",
    highlight: "Joint solutions",
    text: "For platforms and agencies that build data products and want a reliable proxy partner behind them.",
    features: ["Joint go-to-market", "Partner directory listing", "Priority technical support", "Custom pricing"],
  },
  {
    icon: GraduationCap,
    title: "Academic Partnership",
    highlight: "For research and teaching",
    text: "Discounted access for universities, researchers and students working on non-commercial research.",
    features: ["Discounted research credits", "Support for published studies", "Classroom access", "Flexible usage terms"],
  },
] as const;

export const HOW_TO_APPLY = [
  { title: "Choose a program", text: "Pick the partnership that fits your business, audience or research." },
  { title: "Submit your application", text: "Tell us about yourself and your plans through our contact form." },
  { title: "Review", text: "Our partnerships team reviews every application within 2-3 business days." },
  { title: "Start earning", text: "Once approved, you get your partner tools, links and a dedicated contact." },
] as const;
