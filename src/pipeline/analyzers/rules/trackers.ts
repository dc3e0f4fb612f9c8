/**
 * Tracker definitions: named phrase lists, each in one category. Phrases are
 * plain words matched on stems (see normalize.ts); `word*` matches any word
 * starting with the stem, `...` allows up to six words in between.
 */
export const TRACKER_CATEGORIES = [
  "objection",
  "buying_signal",
  "commitment",
  "rejection",
  "next_step",
  "discovery",
  "qualification",
  "pain_point",
  "value",
  "rapport",
  "listening",
  "closing_ask",
  "price_mention",
  "hedging",
  "disclosure",
  "prohibited_claim",
  "sensitive_data_request",
] as const;
export type TrackerCategory = (typeof TRACKER_CATEGORIES)[number];

export const TRACKER_SPEAKERS = ["rep", "customer", "any"] as const;
export type TrackerSpeaker = (typeof TRACKER_SPEAKERS)[number];

export interface TrackerDef {
  id: string;
  category: TrackerCategory;
  /** Sub-kind within the category: objection kind, compliance alert type, signal kind. */
  type: string;
  speaker: TrackerSpeaker;
  phrases: string[];
  strength?: "weak" | "moderate" | "strong";
  severity?: "low" | "medium" | "high" | "critical";
  /** Skip a hit preceded (within five words) by a negation: "we can't guarantee" is not a guarantee. */
  negatable?: boolean;
}

export const BUILTIN_TRACKERS: TrackerDef[] = [
  // Objections, raised by the customer.
  { id: "objection_price", category: "objection", type: "price", speaker: "customer", negatable: true, phrases: [
    "too expensive", "expensive", "too much money", "cost too much", "costs too much", "too pricey", "pricey", "over our budget", "over budget", "out of our budget", "above our budget", "more than we budget*", "more than i had in mind", "more than we had in mind", "more than i expected", "more than we expected", "more than we were expecting", "cant afford it", "cant afford that", "cant afford this", "cannot afford it", "cannot afford that", "not in the budget", "no budget", "budget is tight", "tight budget", "cheaper", "price is high", "price is too high", "steep", "a lot of money", "break the bank", "cost is a concern", "hard to justify the cost", "justify the spend", "justify the price", "budget ... frozen", "budget freeze"] },
  { id: "objection_timing", category: "objection", type: "timing", speaker: "customer", phrases: [
    "not the right time", "bad time", "not a good time", "next quarter", "next year", "maybe later", "revisit ... later", "circle back in", "too busy", "not a priority right now", "not a priority", "not ready", "too soon", "hold off", "put this on hold", "on hold", "wait until", "after the holidays", "end of the year", "timing isnt", "timing ... isnt right", "pick this up again", "pick ... up again after", "rather wait", "fiscal year", "budget cycle", "peak season", "busy season", "until mid", "until after", "cant take on", "nobody can take on", "no bandwidth"] },
  { id: "objection_competitor", category: "objection", type: "competitor", speaker: "customer", phrases: [
    "already use", "already using", "already have a", "already work with", "current vendor", "current provider", "another vendor", "other vendor", "your competitor*", "competitor", "looking at other", "talking to other", "other option*", "other quote*", "quote from", "comparing you", "compare you", "salesforce", "hubspot", "gong", "under contract with", "locked in with", "went with", "going with another", "weve been on", "we have been on", "been using", "switching from", "switch from", "we looked at", "we also looked at", "zendesk", "freshdesk", "samsara", "pipedrive"] },
  { id: "objection_authority", category: "objection", type: "authority", speaker: "customer", phrases: [
    "not my decision", "not up to me", "my boss", "my manager", "run it by", "run this by", "check with", "talk to my", "need approval", "needs approval", "sign* off on", "has to sign off", "have to sign off", "need to sign off", "needs to sign off", "our vp", "vp of", "final word", "final say", "the board", "procurement", "legal ... review", "decision maker", "cfo", "ceo", "my director", "the committee", "partner has to", "get buy in"] },
  { id: "objection_need", category: "objection", type: "need", speaker: "customer", negatable: false, phrases: [
    "dont need", "do not need", "dont really need", "no need for", "dont see the need", "dont see why", "not sure we need", "not sure i need", "not convinced", "works fine", "working fine", "happy with what we", "fine as is", "doing ok without", "spreadsheet* work*", "not a problem for us", "dont have that problem", "not relevant", "doesnt apply", "not interested", "what would we even use"] },

  // Buying signals, from the customer.
  { id: "signal_pricing_request", category: "buying_signal", type: "pricing_request", speaker: "customer", strength: "moderate", phrases: [
    "how much", "what does it cost", "whats the price", "what is the price", "pricing look*", "send ... pricing", "send ... quote", "get a quote", "what would it cost", "price per", "cost per", "any discount*", "payment terms", "annual plan", "monthly plan", "same price", "what price", "what ... the fees", "how much ... fees", "what would ... price", "monthly price", "monthly cost"] },
  { id: "signal_implementation", category: "buying_signal", type: "implementation_question", speaker: "customer", strength: "strong", phrases: [
    "how long ... implement*", "how long ... set up", "take to get ... set up", "how long ... onboard*", "how long ... roll out", "onboarding", "implementation", "when could we start", "how soon could", "how quickly could", "get started", "go live", "migrate our", "integrate with", "integration with", "roll it out", "training for my team", "train my team", "set up for"] },
  { id: "signal_positive", category: "buying_signal", type: "positive_intent", speaker: "customer", strength: "moderate", negatable: true, phrases: [
    "sounds great", "sounds good", "that is great", "thats great", "love that", "really like", "i like that", "like what i see", "exactly what we need", "what we need", "really help*", "would help us", "would ... help us", "help us a lot", "seems reasonable", "sounds reasonable", "id like to invest", "id like to buy", "id like to start", "free up", "would save us", "would solve", "impressive", "impressed", "makes a lot of sense", "this could work", "could work for us", "perfect for us", "game changer", "big improvement"] },
  { id: "signal_timeline", category: "buying_signal", type: "timeline", speaker: "customer", strength: "strong", phrases: [
    "by next month", "this quarter", "by the end of the month", "in place by", "live by", "need it by", "deadline", "asap", "up and running before", "need to be live", "need to be up and running", "contract ends", "as soon as possible", "before our", "start next week", "start on monday", "up and running by"] },
  { id: "signal_budget", category: "buying_signal", type: "budget_confirmed", speaker: "customer", strength: "strong", negatable: true, phrases: [
    "budget approved", "budget is approved", "have budget", "have the budget", "have a budget", "budget set aside", "budget for this", "money for this", "fund* approved", "got budget", "got the budget", "budget signed off", "budget ... signed off", "budget ... approved", "within our budget", "within budget", "fits our budget", "fits in our budget", "can afford"] },
  { id: "signal_references", category: "buying_signal", type: "reference_request", speaker: "customer", strength: "weak", phrases: [
    "case stud*", "references", "reference customer*", "talk to a customer", "other customers like", "who else uses", "companies like us", "customers like us", "who use it", "success stor*"] },

  // Commitment and rejection, from the customer: they decide the outcome.
  { id: "commitment", category: "commitment", type: "commitment", speaker: "customer", strength: "strong", negatable: true, phrases: [
    "lets do it", "lets go ahead", "go ahead with it", "go ahead and sign", "move forward", "lets renew", "renew it", "want to renew", "get it signed", "send ... order form", "moving forward with", "sign today", "sign the contract", "send ... contract", "send ... agreement", "send ... paperwork", "well take it", "we will take it", "count us in", "were all in", "lets sign", "ready to sign", "ready to buy", "ready to start", "you have a deal", "its a deal", "lets get started", "purchase order"] },
  { id: "rejection", category: "rejection", type: "rejection", speaker: "customer", phrases: [
    "not interested", "well pass", "we will pass", "going to pass", "decided to go with", "decided against", "not moving forward", "not going to move forward", "not going to buy", "no thank*", "please remove", "take me off", "stop calling", "chose another", "went with someone else"] },

  // Next steps, either side.
  { id: "next_step", category: "next_step", type: "next_step", speaker: "any", phrases: [
    "next step*", "follow up", "followup", "send you", "send over", "ill send", "schedule", "calendar invite", "set up a call", "set up a meeting", "set up a demo", "book a", "meet again", "talk again", "call you on", "call you back", "speak on", "touch base", "check in with", "reach out in", "follow* up in", "kickoff", "kick off", "order form", "circle back on", "loop back", "trial", "pilot", "proposal", "demo with", "on monday", "on tuesday", "on wednesday", "on thursday", "on friday", "next week", "tomorrow"] },

  // Discovery and qualification: the rep's questions.
  { id: "discovery", category: "discovery", type: "open_question", speaker: "rep", phrases: [
    "tell me about", "tell me more", "walk me through", "how do you currently", "how are you currently", "how does your team", "what does your", "what are you using", "what made you", "what prompted", "what challenge*", "what problem*", "what is your biggest", "whats your biggest", "what would success", "why is that", "how is that affecting", "what happens when", "can you describe", "help me understand", "what are your goals", "what is most important", "whats most important", "how often", "how many"] },
  { id: "qualification", category: "qualification", type: "bant", speaker: "rep", phrases: [
    "your budget", "budget for", "budget range", "who else is involved", "who else would", "who makes the decision", "decision process", "decision maker", "sign off on", "your timeline", "what timeline", "timeframe", "time frame", "when do you need", "when are you looking", "how are you evaluating", "approval process", "buying process", "who would need to"] },
  { id: "pain_point", category: "pain_point", type: "pain", speaker: "customer", phrases: [
    "struggl*", "problem", "challenge", "pain", "frustrat*", "headache", "takes forever", "takes too long", "waste of time", "wasting", "manual*", "error prone", "mistakes", "losing deals", "losing customers", "lose track", "falls through the cracks", "fall through the cracks", "no visibility", "cant see", "hard to", "difficult to", "slow", "behind on", "churn", "complain*", "we need"] },

  // Rep craft.
  { id: "value", category: "value", type: "value", speaker: "rep", phrases: [
    "save* you", "saves", "reduce*", "cut* ... time", "increase*", "improve*", "return on investment", "roi", "payback", "customers like you", "customers typically", "on average", "percent", "hours a week", "hours per week", "faster", "automat*", "eliminat*", "so that you", "which means you", "benefit", "case study"] },
  { id: "rapport", category: "rapport", type: "rapport", speaker: "rep", phrases: [
    "how are you", "how are things", "hope you", "thanks for taking", "thank you for taking", "thanks for your time", "thank you for your time", "appreciate your time", "appreciate you", "great to meet", "nice to meet", "good to talk", "great to hear", "how was your", "congrat*"] },
  { id: "listening", category: "listening", type: "listening", speaker: "rep", phrases: [
    "what im hearing", "what i hear", "if i understand", "if i heard you", "so youre saying", "sounds like", "you mentioned", "you said", "i understand", "that makes sense", "makes sense", "fair point", "good question", "let me make sure", "to recap", "to summarize", "correct me if"] },
  { id: "closing_ask", category: "closing_ask", type: "closing_ask", speaker: "rep", phrases: [
    "ready to move forward", "shall we", "can we get", "would you like to", "are you ready", "does that work for you", "can i send", "should i send", "want to get started", "ready to get started", "start the paperwork", "send the contract", "send the agreement", "lock in", "sign up", "what would it take", "is there anything stopping"] },
  { id: "price_mention", category: "price_mention", type: "price", speaker: "any", phrases: [
    "price", "pricing", "cost*", "per month", "per year", "per seat", "per user", "a month", "a year", "dollar*", "subscription", "license fee", "discount*", "quote"] },
  { id: "hedging", category: "hedging", type: "hedging", speaker: "rep", phrases: [
    "i think it might", "maybe around", "probably around", "not totally sure", "im not sure what", "i guess", "kind of expensive", "i know its a lot", "i could probably knock", "discount right away", "knock some off"] },

  // Compliance.
  { id: "disclosure", category: "disclosure", type: "recording_disclosure", speaker: "rep", phrases: [
    "this call is being recorded", "call is recorded", "call may be recorded", "call will be recorded", "may be monitored", "being recorded", "recording this call", "recording the call", "record this call", "record our call", "we record", "we are recording", "were recording", "recorded line", "calls are recorded", "call* are being recorded", "record these calls", "record all calls", "call is being monitored", "recorded for quality", "recorded for training", "let you know ... recorded", "heads up ... record*"] },
  { id: "claim_guarantee", category: "prohibited_claim", type: "prohibited_guarantee", speaker: "rep", severity: "critical", negatable: true, phrases: [
    "guarantee* ... return*", "guarantee* ... profit*", "guarantee* ... result*", "guarantee* ... roi", "guarantee* ... double", "guarantee* ... money back and", "guaranteed ... percent", "promise ... return*", "promise ... profit*", "will definitely make", "cant lose money", "cannot lose money", "double your money", "assured return*", "certain return*"] },
  { id: "claim_risk_free", category: "prohibited_claim", type: "prohibited_risk_free", speaker: "rep", severity: "high", negatable: true, phrases: [
    "risk free", "riskfree", "no risk", "zero risk", "without any risk", "absolutely safe investment", "no downside", "nothing to lose", "cant go wrong", "cannot go wrong", "completely safe bet"] },
  { id: "claim_pressure", category: "prohibited_claim", type: "pressure_tactics", speaker: "rep", severity: "high", negatable: true, phrases: [
    "decide now", "decide right now", "decide today", "decision today", "sign today or", "today only", "only today", "offer expires today", "expires tonight", "expires at midnight", "last chance", "wont be available tomorrow", "gone tomorrow", "need an answer now", "need an answer right now", "need your answer today", "right now or", "before you hang up", "commit ... right now", "commit ... on this call"] },
  { id: "sensitive_card", category: "sensitive_data_request", type: "payment_data_request", speaker: "rep", severity: "critical", negatable: true, phrases: [
    "card number", "credit card", "debit card", "cvv", "security code on the back", "expiration date", "expiry date", "bank account number", "account number", "routing number", "sort code", "iban", "social security number", "pin number", "your pin"] },
];
