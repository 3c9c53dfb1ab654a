// The public navigation (spec 2.2). Shared by the header and the footer.

export interface NavLink {
  href: string;
  label: string;
}

export const PRIMARY_NAV: readonly NavLink[] = [
  { href: "/use-cases", label: "Use Cases" },
  { href: "/pricing", label: "Pricing" },
  { href: "/docs", label: "Docs" },
  { href: "/contact", label: "Contact" },
  { href: "/program", label: "Programs" },
];

export const SIGN_IN: NavLink = { href: "/login", label: "Sign In" };
export const GET_STARTED: NavLink = { href: "/signup", label: "Get Started" };

export const FOOTER_GROUPS: readonly { title: string; links: readonly NavLink[] }[] = [
  {
    title: "Product",
    links: [
      { href: "/pricing", label: "Pricing" },
      { href: "/use-cases", label: "Use Cases" },
      { href: "/docs", label: "Documentation" },
    ],
  },
  {
    title: "Company",
    links: [
      { href: "/program", label: "Partner Programs" },
      { href: "/contact", label: "Contact" },
      { href: "/signup", label: "Create Account" },
    ],
  },
  {
    title: "Legal",
    links: [
      { href: "/privacy", label: "Privacy Policy" },
      { href: "/terms", label: "Terms of Service" },
    ],
  },
];
