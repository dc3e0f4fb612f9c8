/** A company tracker the built-in library does not have: an objection defined by examples only. */
export const WORKS_COUNCIL_TRACKER = {
  id: "objection_works_council",
  category: "objection",
  type: "works_council",
  speaker: "customer",
  examples: [
    "The works council will have to sign off on this.",
    "Our works council needs to approve anything that tracks staff.",
    "Anything like this goes to the works council first.",
    "We'd need the works council on board before a pilot.",
    "The employee council has a say in monitoring tools.",
  ],
};
