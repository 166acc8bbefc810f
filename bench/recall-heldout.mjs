// The held-out set of the recall benchmarks: facts, corrections, probes and small talk written
// apart from the tuning set (recall-corpus.mjs), with other subjects, templates and words.
// Nothing in the retrieval defaults was chosen by looking at results on this set; report it
// separately and never tune on it. Same shape as the tuning set: `ask` shares a word with the
// fact, `para` shares none (stop words aside).

export const FACTS = [
  { say: (v) => `These days my home city is ${v}.`, fix: (v) => `Small correction: my home city is ${v} since last month.`, ask: "Remind me of my home city?", para: "Where am I based?", values: ["Porto", "Gdansk", "Nantes", "Bergen", "Cork", "Brno", "Graz", "Utrecht"] },
  { say: (v) => `My manager at the office is ${v}.`, fix: (v) => `Heads up, after the reorg my manager is ${v}.`, ask: "Who is my manager again?", para: "Who do I report to?", values: ["Priya Raman", "Tomasz Nowak", "Aiko Sato", "Liam Byrne", "Fatima Zahra", "Marco Bellini", "Ingrid Dahl", "Kwame Mensah"] },
  { say: (v) => `Quick note: I'm allergic to ${v}.`, fix: (v) => `Turns out after the tests that I'm allergic to ${v}, not the other thing.`, ask: "What am I allergic to?", para: "Which ingredient makes me sick?", values: ["peanuts", "shellfish", "sesame", "kiwi", "mustard", "celery", "lupin", "buckwheat"] },
  { say: (v) => `For the trip, my flight number is ${v}.`, fix: (v) => `They rebooked me, the flight number is ${v} now.`, ask: "Which flight number did I mention?", para: "What plane am I catching?", values: ["TP1342", "LH2271", "KL1190", "SK4410", "IB3306", "AY0817", "OS0562", "EI0219"] },
  { say: (v) => `Honestly my favourite band is ${v}.`, fix: (v) => `I've changed my mind, my favourite band is ${v}.`, ask: "Which band is my favourite?", para: "What music group do I like most?", values: ["Khruangbin", "Phoenix", "Beirut", "Alvvays", "Wilco", "Slowdive", "Stereolab", "Grizzly Bear"] },
  { say: (v) => `The code for my bike lock is ${v}.`, fix: (v) => `I reset it, the bike lock code is ${v} now.`, ask: "What is the bike lock code?", para: "How do I open the padlock on my bicycle?", values: "number" },
  { say: (v) => `My partner's birthday falls on ${v}.`, fix: (v) => `Oops, my partner's birthday is actually on ${v}.`, ask: "When is my partner's birthday?", para: "On which date does my spouse celebrate turning a year older?", values: ["March 3", "April 19", "June 8", "July 27", "August 14", "September 2", "October 30", "December 11"] },
  { say: (v) => `Usually I start work at ${v}.`, fix: (v) => `New schedule: I start work at ${v} from now on.`, ask: "What time do I start work?", para: "When does my job begin each morning?", values: ["7:30", "8:00", "8:15", "8:45", "9:00", "9:30", "10:00", "6:45"] },
  { say: (v) => `Our landlord is called ${v}.`, fix: (v) => `The flat was sold, so our landlord is called ${v} now.`, ask: "What is our landlord called?", para: "Who owns the apartment we rent?", values: ["Mrs. Albrecht", "Mr. Okafor", "Mrs. Varga", "Mr. Lindgren", "Mrs. Quinn", "Mr. Moreau", "Mrs. Costa", "Mr. Haraldsen"] },
  { say: (v) => `The router's admin password is ${v}.`, fix: (v) => `I changed the router's admin password to ${v}.`, ask: "What's the router's admin password?", para: "How do I log in to the box that gives us internet?", values: null },
];

// Small talk that reuses the facts' words without their values.
export const FILLER = [
  "The city council wants to close the old market on Sundays.",
  "My manager asked for the slides by Thursday, no pressure.",
  "A friend of mine is allergic to cats and still adopted one.",
  "The flight attendants were striking again, the news says.",
  "That band played a free concert in the park last summer.",
  "Somebody stole the bike lock but left the bike, weird.",
  "We need a birthday card for the neighbour's kid.",
  "Work was slow today, so I tidied my desk.",
  "The landlord finally fixed the leaking tap in the kitchen.",
  "The router keeps blinking orange, I have no idea why.",
  "What's a good way to learn to juggle three balls?",
  "Could you explain how tides work in simple words?",
  "I'm trying to drink more water, any tricks?",
  "Which houseplants survive in a dark corner?",
  "How do I get candle wax out of a tablecloth?",
  "Suggest a board game for four adults, please.",
  "What's the difference between baking soda and baking powder?",
  "I want to start journaling but never keep it up.",
  "Is it worth learning to touch type at my age?",
  "My cousin is visiting next week, she loves museums.",
];

export const REPLIES = [
  "Happy to help. Try one small change at a time and notice what sticks.",
  "Good point. Breaking it into short steps usually makes it manageable.",
  "Sounds like a busy week. A quick list in the morning can take some pressure off.",
  "One option is to test it for a few days and see how it feels before committing.",
  "In short: a bit of patience, and doing it regularly, go a long way.",
  "That happens to a lot of people. Keep it simple and it tends to work out.",
];
