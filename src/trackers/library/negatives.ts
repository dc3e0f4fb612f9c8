/**
 * Everyday lines that belong to no tracker: small talk, acknowledgements,
 * product talk. Every tracker of the speaker's side learns them as negatives.
 */
export const CUSTOMER_NEUTRAL: string[] = [
  "Sure, no problem.", "Good to finally connect.", "Busy, we just opened the second location, so it's been a lot.", "Grey and rainy, as always. But fine.",
  "Mm-hm.", "Okay.", "Yeah.", "Right.", "Got it, thanks.", "Sorry, you cut out for a second there.", "Can you hear me now?", "Hang on, let me close the door.",
  "It's about eight days, most of it is chasing receipts.", "We have about forty drivers across three depots.", "I've been here about six years now.",
  "The kids are good, thanks for asking.", "We mostly sell through distributors in the Midwest.", "The weather's been terrible all week.",
  "Our reps complain about the CRM, data entry takes forever.", "The management team gets numbers late every month.", "That makes sense.",
  "Oh wow, okay.", "Interesting, I didn't know that.", "Yes, that's right, two sites.", "We redid the kitchen in the spring, actually.",
  "Fine, who did you say this was?", "Oh right, okay. What's the fund about?", "Uh, sure, hold on, let me grab my wallet.", "Okay, it's a Visa, four four one two.",
  "Really well, thanks, the team hit their targets.", "Everyone's using it daily.", "Still the case, the paperwork alone takes forever.", "About forty.",
  "I appreciate you saying that.", "Thank you, that's helpful.", "Ha, same here.", "Hi, yes, this is she.", "We had a couple of phishing scares this spring.",
  "Honestly it's a spreadsheet and a group chat.", "I'm on the phone for an hour trying to find cover.", "It's a real headache.", "Yeah, our bookkeeper almost clicked one.",
  "That's a good question, I'd have to look.", "I think it was March, maybe April.", "We're a family business, three generations.", "My daughter runs the front desk.",
  "The old system crashes every other week.", "Oh, I remember your email, yes.", "I'm driving, so I might lose you.", "Two minutes, sure.", "Not right now.",
  "Let me think about how to say this.",
  "A few things. First, the panels go on the south side, right?", "Good, thanks. How about you?", "We're a family of five, so the house is always loud.", "It's a three bed, two bath near the school.", "We do about two hundred deliveries a week in summer.", "I glanced at the brochure, it's somewhere on my desk.", "My husband threw the letter in the pile with the other mail.", "Our office manager set the whole thing up years ago.", "Signal's bad out past the ranches, that's the main thing.", "We've got eleven agents, two of them part-time.", "Friday's good.", "Sure, no worries.", "I'll ask her to send it tomorrow.", "I left that job two years ago.", "Ninety grand a month in the summer, the compressors never stop.", "Kids are gone now, it's just the two of us.", "We mostly do weddings and corporate events.", "Yes, that's the one, the blue van.", "Do you need anything else from me today?", "I'm at the office until six.", "That's interesting, tell me more.", "Goodbye.", "Hi, yes, speaking.", "The last storm took out half the fence.", "We switched phone providers a couple of years ago, it went fine.", "I had the same thought, actually.", "Let me find the paperwork, one second.", "We have two locations, one downtown and one by the airport.", "That helps, thank you.", "I didn't realise that, good to know.", "We tried something like that once, years ago.", "Uh-huh, go on.", "It's mostly email and phone calls.",
];

export const REP_NEUTRAL: string[] = [
  "Hi Dana, it's Marcus from Shiftly, thanks for taking the time today.", "How's the week going so far?", "Congrats on the new site!", "No worries at all.",
  "Great, thanks so much.", "Perfect.", "Got it.", "No rush.", "Glad to hear it worked.", "Ha, same here.", "Sorry, say that again?",
  "So I'll walk you through the platform.", "The first module is route planning, which builds the routes overnight.", "We also have an API, single sign-on, and a mobile admin.",
  "Our support team is available around the clock in six languages.", "It's six dollars per employee per month.", "It's a fixed income product.",
  "Twenty five thousand is the minimum.", "Same price, three hundred forty a year for the ten seats.", "That's very doable, migrations take two to three weeks.",
  "Those campaigns have been hitting a lot of small offices this year.", "We started in 2015 and now work with over four hundred companies.",
  "Thanks Dana, talk soon.", "Great, thanks Lena.", "Understood.", "That's a fair point.", "Let me pull up your account.", "Bear with me one second.",
  "You downloaded our retirement guide last month.", "Your plan runs out at the end of the month.", "The ongoing charge is zero point six percent a year.",
  "It returned about five percent last year.", "Usually a day, we import your staff list.", "It's an extra eleven pounds a month.",
  "Our warranty covers parts for ten years.", "We have offices in Leeds and Manchester.", "Most teams start with the basic plan and upgrade later.",
  "Can you hear me alright?",
  "How long have you been in the new building?", "Let me check the calendar on my end.", "Our install team is local, they're based twenty minutes from you.", "It comes with a ten year warranty on parts.", "That's a common question, let me explain how it works.", "We work with a lot of clinics your size.", "I'll note that down.", "Great question.", "Sure, I'll hold.", "We've been doing this for about fifteen years.", "The app works on iPhone and Android.", "You'd have a dedicated account manager.", "The policy covers fire, theft and storm damage.", "Rates are based on your credit score and the loan amount.", "I totally get that.", "Thanks for your patience.", "Is now still a good time?", "Did I catch you at a bad moment?", "Anyway, enough about us.", "I'm calling about the quote you requested.", "I'll leave it there then.",
];
