// Copy of the Use Cases page (spec 2.7).
import { ChartColumn, Search, Share2, Shield, ShoppingCart, Bug } from "lucide-react";

export const USE_CASES = [
  {
    icon: ShoppingCart,
    title: "E-commerce",
    text: "Track competitor prices, stock levels and promotions across marketplaces and regions without being blocked or served misleading data.",
    features: [
      "Price and stock monitoring",
      "Regional storefront checks",
      "Sneaker and limited-drop purchasing",
      "Marketplace seller research",
    ],
  },
  {
    icon: Share2,
    title: "Social Media Management",
    text: "Run several brand and client accounts safely, each from its own stable IP, with sessions that stay consistent over time.",
    features: ["One dedicated IP per account", "Sticky sessions", "Mobile and residential IPs", "Scheduling and automation tools support"],
  },
  {
    icon: Search,
    title: "SEO Monitoring",
    text: "See real search results for any city or country and follow your rankings, ads and snippets exactly as local users see them.",
    features: ["Local SERP tracking", "City-level targeting", "Ad verification on search", "Keyword research at scale"],
  },
  {
    icon: ChartColumn,
    title: "Market Research",
    text: "Collect public data on products, reviews and trends from any market with a reliable success rate and clean, unbiased responses.",
    features: ["Review and sentiment collection", "Trend and pricing analysis", "100+ countries", "High success rate on protected sites"],
  },
  {
    icon: Shield,
    title: "Brand Protection",
    text: "Find counterfeits, unauthorised sellers and trademark abuse wherever they appear, and verify that your ads run where you pay for them.",
    features: ["Counterfeit detection", "Ad fraud verification", "Affiliate link compliance", "Geo-specific checks"],
  },
  {
    icon: Bug,
    title: "Web Scraping & Crawling",
    text: "Scale crawlers from hundreds to millions of requests a day with automatic rotation, retries and every protocol your tools speak.",
    features: [
      "Automatic IP rotation",
      "HTTP/HTTPS and SOCKS5",
      "Unlimited concurrent sessions",
      "Works with Scrapy, Puppeteer, Playwright",
    ],
  },
] as const;
