import expected from "./expected.json" with { type: "json" };
import { timed, type Expected, type Line, type ScriptedCall } from "./script.js";

/**
 * Scripted sales calls for the evaluation harness and the rules tests. Written
 * as people talk: varied wording, fillers, half sentences; the expected
 * detections live in expected.json, decided by reading each call.
 */
const scripts: Record<string, { description: string; lines: Line[]; startAt?: number }> = {
  good_won: {
    description: "Well-run call for a scheduling tool: disclosure, discovery, price pushback answered, customer commits.",
    lines: [
      ["R", "Hi Dana, it's Marcus from Shiftly. Thanks for taking the time today. Quick heads up, this call is recorded for quality and training."],
      ["C", "Sure, no problem. Good to finally connect."],
      ["R", "How's the week going so far?"],
      ["C", "Busy, we just opened the second location, so it's been a lot."],
      ["R", "Congrats on the new site! Tell me a bit about how you build the staff rota today."],
      ["C", "Honestly it's a spreadsheet and a group chat. Every Sunday night I spend three hours fixing it, and people still show up on the wrong day."],
      ["R", "Three hours every week, that's painful. What happens when someone calls in sick?"],
      ["C", "I'm on the phone for an hour trying to find cover. It's a real headache."],
      [
        "R",
        "So what I'm hearing is the Sunday planning and the last minute cover are the two big ones. Who else would be involved in choosing a tool like this?",
      ],
      ["C", "Just me and my business partner, and she already told me to find something."],
      [
        "R",
        "Great. With Shiftly the rota builds itself from availability, and sick calls go out as open shifts staff can grab from their phone. Managers like you typically save about four hours a week.",
      ],
      ["C", "Okay, that would honestly help us a lot. What does it cost for two locations?"],
      ["R", "It's six dollars per employee per month, so with your thirty staff it's a hundred eighty a month."],
      ["C", "Hmm, that's a bit more than I had in mind, to be honest."],
      [
        "R",
        "I get that. If it saves you four hours a week plus the overtime from no-shows, most owners see it pay for itself in the first month. Does that math roughly work for you?",
      ],
      ["C", "Yeah, when you put it like that it does. How long does it take to get everyone set up?"],
      ["R", "Usually a day. We import your staff list and I'll walk your team through the app on a short call."],
      ["C", "Alright, let's do it. Send over the agreement and I'll sign it tonight."],
      ["R", "Fantastic. I'll email the agreement within the hour and book your onboarding call for Thursday at ten, does that work?"],
      ["C", "Thursday at ten is perfect."],
      ["R", "Thanks Dana, talk Thursday."],
    ],
  },
  bad_lost: {
    description: "Rep pitches without disclosure or questions; customer sees no need and declines.",
    lines: [
      ["R", "Hello, is this the owner? Great. I'm calling from BrightWave Solar, we're in your area this week doing free roof assessments."],
      ["C", "Okay..."],
      [
        "R",
        "Our panels are the best on the market, top rated, and installation is fast, we handle permits, everything, it's the most popular system in the state right now.",
      ],
      ["C", "We actually rent this place, and the landlord pays the electric."],
      ["R", "Sure, sure, but a lot of renters still go solar, it's a great investment, everybody's doing it, you'd be surprised."],
      ["C", "I really don't see why we'd need it if we don't pay the bill."],
      ["R", "Well it adds value to the home, and the panels look great."],
      ["C", "It's not our home. Look, I'm not interested, thanks."],
      ["R", "Okay, well if you change your mind."],
    ],
  },
  objection_heavy: {
    description: "Every kind of objection in one call; rep answers some, leaves others; ends with a follow-up.",
    lines: [
      ["R", "Morning Priya, before we start I should mention the call is being recorded. Thanks for making time."],
      ["C", "Sure. I'll be upfront, I only have fifteen minutes."],
      ["R", "Understood. What made you take the meeting?"],
      ["C", "Our reps complain about the CRM, data entry takes forever. But I'll be honest, we've got a three year contract with Salesforce."],
      [
        "R",
        "That makes sense. A lot of our customers run us alongside Salesforce, we sit on top and do the logging for the reps, so you don't have to rip anything out.",
      ],
      ["C", "Okay. Even so, the pricing on your website looked steep for a team our size."],
      ["R", "Right."],
      ["C", "And realistically nothing new gets bought before the new fiscal year, which for us starts in April."],
      ["R", "What would need to happen for this to be on the list for April?"],
      ["C", "Well, it's not really my call anyway. Our VP of sales signs off on anything like this."],
      ["R", "Would it help if I put together a one page business case you could bring to her, with the time savings for your team?"],
      ["C", "Maybe. To be frank I'm not convinced the reps would even use it, they ignore half the tools we have."],
      ["R", "Fair point. How about a two week pilot with five reps so you can see the usage numbers yourself before anyone decides?"],
      ["C", "A pilot I could probably sell internally. Send me something in writing."],
      ["R", "Will do, I'll send the pilot outline and the business case by Friday, and let's set up a call with your VP the week after."],
      ["C", "Okay, fine."],
    ],
  },
  compliance_investment: {
    description: "Investment pitch with no disclosure, guaranteed returns, risk-free talk and pressure to decide on the call.",
    lines: [
      ["R", "Good afternoon Mr. Ellis, this is Tony with Summit Capital, how are you today?"],
      ["C", "Fine, who did you say this was?"],
      ["R", "Summit Capital. You downloaded our retirement guide last month, so I wanted to tell you about our income fund."],
      ["C", "Oh right, okay. What's the fund about?"],
      ["R", "It's a fixed income product and honestly it's the best thing we offer. We guarantee a return of nine percent a year, every year."],
      ["C", "Nine percent guaranteed? That sounds high."],
      ["R", "It's completely risk-free, your principal is protected, there's really nothing to lose here."],
      ["C", "I'd want to talk to my wife and maybe our accountant first."],
      ["R", "I understand, but this allocation closes tonight, so I'd need you to commit right now if you want a spot."],
      ["C", "That's fast. How much is the minimum?"],
      ["R", "Twenty five thousand. We can lock it in on this call."],
      ["C", "I don't know, I'll think about it."],
    ],
  },
  compliance_card: {
    description: "Renewal call where the disclosure comes late and the rep takes card details by voice.",
    lines: [
      ["R", "Hey Sam, it's Jordan from NetGuard, how have you been?"],
      ["C", "Good, good. Is this about the renewal?"],
      ["R", "It is! Your plan runs out at the end of the month and I wanted to make sure there's no gap in coverage for your office."],
      ["C", "Right, we definitely want to keep it. We had a couple of phishing scares this spring and your alerts caught both of them."],
      ["R", "Glad to hear it worked. Those campaigns have been hitting a lot of small offices this year."],
      ["C", "Yeah, our bookkeeper almost clicked one. Anyway, same price as last year?"],
      ["R", "Same price, three hundred forty a year for the ten seats. Oh, and sorry, I should have said at the start, this call is being recorded."],
      ["C", "That's fine. Let's renew it then."],
      ["R", "Perfect. Can you read me the card number you'd like to use, and the expiration date and the three digit code on the back?"],
      ["C", "Uh, sure, hold on, let me grab my wallet."],
      ["R", "No rush."],
      ["C", "Okay, it's a Visa, four four one two..."],
      ["R", "Got it, and the expiration?"],
      ["C", "Oh nine, twenty eight."],
      ["R", "Great, you're all set for another year, I'll send the receipt today."],
    ],
  },
  silent_customer: {
    description: "The customer barely speaks; the rep monologues through the deck.",
    lines: [
      ["R", "Hi Chris, thanks for joining. Just so you know, we record these calls for training."],
      ["C", "Mm-hm."],
      [
        "R",
        "So I'll walk you through the platform. We started in 2015 and we now work with over four hundred logistics companies across Europe, and the product has three modules.",
      ],
      ["C", "Okay."],
      [
        "R",
        "The first one is route planning, which takes your orders and builds the routes overnight. The second module is the driver app, which gives drivers turn by turn directions and proof of delivery with photos.",
      ],
      ["C", "Yeah."],
      [
        "R",
        "And the third is analytics, where you see on-time rates, fuel use and cost per drop for every depot, and you can export everything to Excel or your BI tool.",
      ],
      ["C", "Mm."],
      ["R", "We also have an API, single sign-on, and a mobile admin. Our support team is available around the clock in six languages."],
      ["C", "Okay."],
      ["R", "So that's the overview. Any questions at all?"],
      ["C", "Not right now."],
      ["R", "Okay, well, I'll leave it there then."],
    ],
  },
  follow_up_demo: {
    description: "Friendly first call that ends in a booked demo; the decision sits with someone else.",
    lines: [
      ["R", "Hi Lena, Tom from Ledgerly. Before anything else, I want to let you know this call is recorded. How are things in Hamburg?"],
      ["C", "Grey and rainy, as always. But fine."],
      ["R", "Ha, same here. So walk me through how month end close works for your team today."],
      ["C", "It's about eight days. Most of it is chasing receipts and reconciling the card statements by hand."],
      ["R", "Eight days, okay. And what does that delay cost you?"],
      ["C", "The management team gets numbers late, and my two accountants are basically buried the first week of every month."],
      ["R", "That makes sense. Ledgerly matches receipts to card lines automatically, customers typically cut close to three or four days."],
      ["C", "Oh wow, that would be a big improvement for us."],
      ["R", "Is there a particular timeline you're working towards?"],
      ["C", "Not a hard one. But I should say our CFO will have the final word on anything we buy."],
      ["R", "Makes sense. Would it be useful to do a proper demo with your CFO on the call?"],
      ["C", "Yes, I think so. Could you also share a couple of companies like us who use it? She'll ask."],
      ["R", "Absolutely, I'll send two case studies today. How does next Tuesday at two look for the demo?"],
      ["C", "Tuesday at two works, I'll forward the invite to her."],
      ["R", "Great, thanks Lena, speak Tuesday."],
    ],
  },
  careful_compliance: {
    description: "A careful advisor: disclosure up front, explicitly refuses to promise returns or rush the client, sends a secure payment link.",
    lines: [
      ["R", "Hello Mrs. Okafor, this is Daniel from Harbor Wealth. This call may be recorded for compliance purposes. Is now still a good time?"],
      ["C", "Yes, go ahead."],
      ["R", "You asked about the balanced fund. What are you hoping the money will do for you over the next ten years?"],
      ["C", "I want it to grow, but I can't afford to lose a big chunk of it. I'm sixty-one."],
      [
        "R",
        "That's an important point. I want to be clear that I can't guarantee any returns, every investment carries some risk, and the fund's value can go down as well as up.",
      ],
      ["C", "I appreciate you saying that. What did it do last year?"],
      [
        "R",
        "It returned about five percent last year, but past performance doesn't predict future results. I'll send you the fact sheet with the full history.",
      ],
      ["C", "Okay. And what are the fees?"],
      ["R", "The ongoing charge is zero point six percent a year, with no entry fee."],
      ["C", "That seems reasonable. I'd like to invest, but I want to talk to my son first."],
      ["R", "Of course, there's no pressure to decide today. Take the time you need."],
      ["C", "Thank you. If I go ahead, do I give you my bank details now?"],
      ["R", "Please don't read any card or account numbers to me on the phone. I'll email you a secure link where you can set it up yourself."],
      ["C", "Oh good, that's better."],
      ["R", "I'll send the fact sheet and the link this afternoon and call you on Monday to answer any questions."],
      ["C", "Perfect, thank you Daniel."],
    ],
  },
  timing_stall: {
    description: "Interested customer stalls on timing and a budget freeze; no decision, a loose follow-up.",
    lines: [
      ["R", "Hi Greg, Alicia from Trellis HR, this call is recorded. Thanks for calling back."],
      ["C", "Yeah, sorry it took a while, it's been chaos here."],
      ["R", "No worries at all. Last time you mentioned onboarding new hires was taking weeks, is that still the case?"],
      ["C", "Still the case. The paperwork alone takes forever and we keep losing candidates who accept other offers."],
      ["R", "How many people are you hiring this year?"],
      ["C", "About forty. Look, I like the product, but we've had a hiring freeze on tools, all discretionary budget is frozen until the audit is done."],
      ["R", "Understood. When does the audit finish?"],
      ["C", "Probably end of Q1. Honestly I'd rather pick this up again after that, the timing just isn't right at the moment."],
      ["R", "That's fair. Would it help if I held the current pricing for you until then?"],
      ["C", "Sure, that'd be nice."],
      ["R", "Okay, I'll check in with you in March then."],
      ["C", "Sounds good."],
    ],
  },
  competitor_switch: {
    description: "Customer on a competitor, frustrated, budget approved and a hard deadline; signs at the end.",
    lines: [
      ["R", "Hey Maya, it's Ben at Relay Support, thanks for taking the call. Quick note, we record calls for quality."],
      ["C", "Hi Ben, sure."],
      ["R", "You mentioned in your email you're using Zendesk right now, what's prompting the look around?"],
      ["C", "We've been on Zendesk for four years, but the renewal went up forty percent and the reporting is useless for us."],
      ["R", "Forty percent, ouch. What kind of reporting do you need that you can't get today?"],
      ["C", "First response time per channel, by team. Right now someone exports it into Excel every Monday and it's always wrong."],
      ["R", "Got it. That's a standard dashboard in Relay, it updates live, no exports."],
      ["C", "Okay, that's exactly what we need. We've already got budget signed off for a new helpdesk this year."],
      ["R", "Great. Is there a date you need to be live by?"],
      ["C", "Our Zendesk contract ends on March thirty-first, so we need to be up and running before then."],
      ["R", "That's very doable, migrations take two to three weeks. Can we get the contract started this week so we have buffer?"],
      ["C", "Yes. Send me the order form and I'll get it signed."],
      ["R", "Sending it now, and I'll set up the migration kickoff for Monday."],
    ],
  },
  mono_unknown: {
    description: "Mono recording: speakers unknown, as whisper gives them. Price pushback and a pricing question.",
    lines: [
      ["U", "Hi, this is Kim from PrintPoint, I'm letting you know this call is being recorded."],
      ["U", "Hi Kim, okay."],
      ["U", "I'm following up on the quote for the office printers. Did you get a chance to look at it?"],
      ["U", "I did. Honestly it's more than we budgeted for, by quite a bit."],
      ["U", "I understand. The quote included the color units, if we switch two of them to black and white the monthly cost drops by about a third."],
      ["U", "Okay, what would the monthly price be then?"],
      ["U", "Around four hundred and ten a month including service."],
      ["U", "Alright. Let me take that back to the team."],
      ["U", "Sure, I'll send the revised quote over this afternoon."],
    ],
  },
  very_long: {
    description: "A long discovery-heavy call (about 45 minutes of scripted turns) with objections and signals deep in it.",
    lines: [],
  },
  empty: {
    description: "Nothing recognised: the weightless whisper model transcribes no speech.",
    lines: [],
  },
};

/** The very long call: an opening, a long discovery section walking through eight regions, then the end game. */
function veryLong(): Line[] {
  const regions = ["north", "south", "east", "west", "central", "coastal", "mountain", "metro"];
  const lines: Line[] = [
    ["R", "Hi Rafael, Nina from Fleetwise, thanks for setting aside the whole hour. As usual, this call is being recorded."],
    ["C", "Happy to. We've got a lot to get through."],
  ];
  regions.forEach((r, i) => {
    lines.push(
      ["R", `Let's go region by region. Walk me through how dispatch works in the ${r} region today.`],
      ["C", `In ${r} we have ${4 + i} dispatchers. They take orders by phone and email and plan the vans on a whiteboard each morning.`],
      ["R", `How many stops does a van do per day in ${r}?`],
      ["C", `Somewhere around ${20 + i * 3}, depending on the season.`],
      ["R", `And when a driver is running late in ${r}, how do customers find out?`],
      ["C", `Mostly they call us and ask. The dispatchers then phone the driver, it eats up a lot of their morning.`],
      ["R", `So the late calls are a big share of dispatcher time in ${r}. Roughly how many of those calls a day?`],
      ["C", `Maybe ${30 + i * 5} on a normal day, more in December.`],
      ["R", "Okay, noted. And who owns the vans, you or contractors?"],
      ["C", i % 2 === 0 ? "Our own vans in that one." : "Mostly contractors there, with a few of ours."],
      ["R", "Does the same tracking apply to contractors?"],
      ["C", "Not really, they use their own phones and we rarely see where they are."],
    );
  });
  lines.push(
    [
      "R",
      "Thanks, that's a really complete picture. With Fleetwise, customers get a live tracking link automatically, and our customers typically cut inbound where-is-my-delivery calls by about sixty percent.",
    ],
    ["C", "That would free up half my dispatchers' mornings."],
    ["R", "And planning goes from the whiteboard to an optimised plan in a couple of minutes."],
    ["C", "Alright, but I'll be honest, we looked at Samsara last year and it came in a lot cheaper than what you sent."],
    [
      "R",
      "Fair. The difference is that we include the customer notifications and contractor tracking, which Samsara charges extra for. Can I show you the side by side?",
    ],
    ["C", "Sure, send it. The other thing is timing, we're in peak season until mid January, nobody can take on a rollout before that."],
    ["R", "Understood, we'd plan the rollout for late January then. What does the approval process look like on your side?"],
    ["C", "I can approve up to fifty thousand myself, above that it goes to our COO."],
    ["C", "If the numbers work I'd want the first two regions live by February."],
    ["R", "Great. I'll send the side by side comparison and a proposal for two regions, and let's book a call on the twelfth to go through it."],
    ["C", "The twelfth works. Send the calendar invite."],
  );
  return lines;
}

export const CALLS: ScriptedCall[] = Object.entries(scripts).map(([id, s]) => ({
  id,
  description: s.description,
  transcript: id === "very_long" ? timed(veryLong(), s.startAt) : timed(s.lines, s.startAt),
  expected: (expected as Record<string, Expected>)[id],
}));

export function scriptedCall(id: string): ScriptedCall {
  const c = CALLS.find((x) => x.id === id);
  if (!c) throw new Error(`no scripted call ${id}`);
  return c;
}
