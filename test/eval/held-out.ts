import expected from "./held-out.json" with { type: "json" };
import { timed, type Expected, type Line, type ScriptedCall } from "./script.js";

/**
 * Held-out calls: written after the tracker lists were tuned on calls.ts and
 * never used to tune them, so their figures show how the rules do on wording
 * they were not fitted to. Not asserted in tests; `npm run eval` prints them apart.
 */
const scripts: Record<string, { description: string; lines: Line[] }> = {
  insurance_upsell: {
    description: "Insurance upsell: disclosure given, customer worried about cost and wants to ask a spouse.",
    lines: [
      ["R", "Good morning, Carla speaking from Northstar Insurance. Before we go on, I need to tell you our calls are recorded."],
      ["C", "Okay, that's fine."],
      ["R", "I'm calling because your home policy renews next month. Has anything changed with the house this year, any renovations?"],
      ["C", "We redid the kitchen in the spring, actually."],
      ["R", "That's worth knowing, it may change your rebuild value. How much did the renovation cost roughly?"],
      ["C", "About forty thousand."],
      ["R", "Then I'd suggest the extended rebuild cover. It's an extra eleven pounds a month."],
      ["C", "Eleven a month on top of what we pay now? Money's pretty tight this year, I'm not sure we can stretch to that."],
      [
        "R",
        "Understood. Without it, if the kitchen were damaged you'd only be covered up to the old value. Would it help if I emailed both options side by side?",
      ],
      ["C", "Yes, do that. I'll have to go over it with my husband anyway, he handles the bills."],
      ["R", "Of course. I'll email them today and give you a ring on Thursday afternoon."],
      ["C", "Thursday's fine."],
    ],
  },
  software_pushy: {
    description: "Pushy software rep: no disclosure, a 'can't lose' promise and a deadline squeeze; customer unconvinced.",
    lines: [
      ["R", "Hey Mike, Josh from GrowthStack! Got two minutes? Awesome."],
      ["C", "Two minutes, sure."],
      [
        "R",
        "So our marketing suite pays for itself, honestly you literally cannot lose money with it, every client of ours has made it back in the first month.",
      ],
      ["C", "Every single one? That's hard to believe."],
      [
        "R",
        "Every one. And look, the founder's discount ends at five o'clock today, after that it's double, so I really need a yes from you before we hang up.",
      ],
      ["C", "I don't make decisions like that on a cold call. And we already have an agency doing this for us."],
      ["R", "Sure but the agency is costing you way more."],
      ["C", "Maybe. Send me something and I'll look at it."],
    ],
  },
  warm_renewal_won: {
    description: "Warm renewal with an expansion: the customer asks about adding seats and agrees.",
    lines: [
      ["R", "Hi Sofia, quick reminder that this call is recorded. How did the quarter end for you?"],
      ["C", "Really well, thanks, the team hit their targets."],
      ["R", "Love to hear it. You're at twenty seats today, how's adoption across the team?"],
      ["C", "Everyone's using it daily. Actually we're hiring six more people next month, what would it take to add them?"],
      ["R", "Easy, same per-seat rate as your current plan, and I can prorate them to your renewal date."],
      ["C", "Perfect. Can we have them active by the first so the new hires can start on it?"],
      ["R", "Yes. I'll send an updated order for twenty six seats this afternoon."],
      ["C", "Great, I'll sign it as soon as it comes in."],
    ],
  },
};

export const HELD_OUT: ScriptedCall[] = Object.entries(scripts).map(([id, s]) => ({
  id,
  description: s.description,
  transcript: timed(s.lines),
  expected: (expected as Record<string, Expected>)[id],
}));
