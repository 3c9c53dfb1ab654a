// Copy of the Contact page (spec 2.6).

/** The FAQ, with the support hours from settings (support_hours) where it states them. */
export const contactFaq = (supportHours: string) => [
  {
    question: "How quickly will I get a reply?",
    answer: `Our support team replies within 2-4 hours during business hours (${supportHours}) and within 24 hours on weekends.`,
  },
  {
    question: "Do you offer phone support?",
    answer: "Yes. Phone support is available to paid customers during business hours; everyone can reach us by e-mail and this form.",
  },
  {
    question: "Can I book a product demo?",
    answer:
      'Absolutely. Choose "Partnership" or "General inquiry" above, tell us about your use case, and our sales team will schedule a live demo.',
  },
  {
    question: "Where can I check the service status?",
    answer:
      "Our status page shows the live health of the network and any planned maintenance, which we always announce at least 24 hours in advance.",
  },
];
