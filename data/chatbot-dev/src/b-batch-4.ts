import type { HandExampleB } from "./b-types.ts";

/** Batch 4: education vouchers, compulsory foreign languages, banning homework, community radio, free university. */
export const batch4: HandExampleB[] = [
  {
    topic: "perspectrum-509",
    kind: "clean",
    pro: ["p3766", "p3768"],
    con: ["p3769", "p3770"],
    response:
      "Education vouchers, which give families a set amount of public money to spend at the school of their choice, remain a divisive idea.\n\nAdvocates say vouchers level the field between rich and poor: wealthier families can already move house or pay fees to reach better schools, and a voucher extends similar options to poorer children. They also value the principle of choice, arguing that parents rather than officials should decide where their children are educated.\n\nCritics fear the children who most need help would lose out, stuck in struggling schools as more motivated families leave. And they argue that the extra choice mainly benefits the comfortably off, who have the time, information and transport to make use of it.\n\nHow vouchers work in practice depends heavily on design.",
    spans: [
      [
        "p3766",
        "vouchers level the field between rich and poor: wealthier families can already move house or pay fees to reach better schools, and a voucher extends similar options to poorer children",
      ],
      [
        "p3768",
        "They also value the principle of choice, arguing that parents rather than officials should decide where their children are educated",
      ],
      [
        "p3769",
        "the children who most need help would lose out, stuck in struggling schools as more motivated families leave",
      ],
      [
        "p3770",
        "the extra choice mainly benefits the comfortably off, who have the time, information and transport to make use of it",
      ],
    ],
  },
  {
    topic: "perspectrum-509",
    kind: "clean",
    pro: ["p3768"],
    con: ["p3770"],
    response:
      "Should schools be funded through vouchers? Supporters like the idea because it gives parents much more say over which school their child attends. Opponents are sceptical that this freedom would be shared evenly; in their view, it is mostly better-off families who would be in a position to take advantage of it. The debate often comes down to whether choice can be made to work for everyone.",
    spans: [
      ["p3768", "it gives parents much more say over which school their child attends"],
      [
        "p3770",
        "this freedom would be shared evenly; in their view, it is mostly better-off families who would be in a position to take advantage of it",
      ],
    ],
  },
  {
    topic: "perspectrum-509",
    kind: "coverage",
    pro: ["p3766", "p3768"],
    con: ["p3769"],
    response:
      "Opinions on voucher schemes differ sharply. Those in favour emphasise parental choice: with a voucher in hand, families are no longer tied to the nearest school and can pick one that suits their child. Those against warn that the most vulnerable pupils, whose parents may be unable or unwilling to shop around, would be left behind in whatever schools remain. Ultimately, the question is whether a market in school places helps or harms those with the least.",
    spans: [
      [
        "p3768",
        "Those in favour emphasise parental choice: with a voucher in hand, families are no longer tied to the nearest school and can pick one that suits their child",
      ],
      [
        "p3769",
        "the most vulnerable pupils, whose parents may be unable or unwilling to shop around, would be left behind in whatever schools remain",
      ],
    ],
    dropped: ["p3766"],
    note: "drops the pro argument that vouchers give richer and poorer children equal opportunity",
  },
  {
    topic: "perspectrum-509",
    kind: "both",
    pro: ["p3766"],
    con: ["p3769", "p3770"],
    response:
      "There's no simple answer to whether education should be funded with vouchers.\n\nSupporters see them as a tool for fairness, giving children from poorer homes the same chance at a good school that wealthier children already enjoy. They also argue that vouchers hand parents the freedom to choose, rather than leaving the decision to the local authority.\n\nOpponents worry about who gets left out. The most disadvantaged children, they say, risk being stranded as others move on.\n\nIt's a debate in which both sides claim to be acting in the interest of poorer families.",
    spans: [
      [
        "p3766",
        "giving children from poorer homes the same chance at a good school that wealthier children already enjoy",
      ],
      ["p3769", "The most disadvantaged children, they say, risk being stranded as others move on"],
    ],
    errorSpans: [
      "They also argue that vouchers hand parents the freedom to choose, rather than leaving the decision to the local authority",
    ],
    extra: "p3768",
    dropped: ["p3770"],
    note: "drops the con argument that only well-off families benefit from choice; adds the unused pro argument about parents' freedom of choice",
  },
  {
    topic: "perspectrum-511",
    kind: "clean",
    pro: ["p3781", "p3784"],
    con: ["p3789", "p3787"],
    response:
      "Making foreign languages compulsory in schools is a question that looks quite different depending on where you live.\n\nAdvocates make an economic case: a workforce that can speak other languages helps national economies compete for trade and investment. They also stress the cultural payoff, arguing that learning another language opens a window onto how other people think and live.\n\nSceptics note that in countries where English is the native language, the practical need to learn another is much smaller, since English already dominates international business. They also point out that compulsion doesn't guarantee success; plenty of pupils will struggle to master a language whatever the rules say.\n\nBoth arguments have merit, and policy varies widely between countries.",
    spans: [
      ["p3781", "a workforce that can speak other languages helps national economies compete for trade and investment"],
      ["p3784", "learning another language opens a window onto how other people think and live"],
      [
        "p3789",
        "in countries where English is the native language, the practical need to learn another is much smaller, since English already dominates international business",
      ],
      [
        "p3787",
        "compulsion doesn't guarantee success; plenty of pupils will struggle to master a language whatever the rules say",
      ],
    ],
  },
  {
    topic: "perspectrum-511",
    kind: "clean",
    pro: ["p3780", "p3783", "p3782"],
    con: ["p3786"],
    response:
      "Should every pupil have to study a foreign language? Proponents put languages on the same level as mathematics and English, seeing them as a core skill rather than an optional extra. Where language skills are weak, they argue, the answer is to teach more languages, not fewer. Some also see language learning as an act of diplomacy, a way of showing respect to other nations. Opponents are mostly concerned with feasibility: in many countries, they say, there simply aren't the teachers or resources to make a foreign language mandatory. It is a balance between ambition and practicality.",
    spans: [
      [
        "p3780",
        "Proponents put languages on the same level as mathematics and English, seeing them as a core skill rather than an optional extra",
      ],
      ["p3783", "Where language skills are weak, they argue, the answer is to teach more languages, not fewer"],
      ["p3782", "language learning as an act of diplomacy, a way of showing respect to other nations"],
      [
        "p3786",
        "in many countries, they say, there simply aren't the teachers or resources to make a foreign language mandatory",
      ],
    ],
  },
  {
    topic: "perspectrum-511",
    kind: "hallucination",
    pro: ["p3784"],
    con: ["p3787", "p3786"],
    response:
      "Compulsory language lessons have both passionate champions and practical critics.\n\nChampions argue that studying another language builds understanding of other cultures and the people who belong to them. They also point to the European Union's goal that every citizen should learn two languages in addition to their mother tongue.\n\nCritics raise two practical concerns. Not every pupil will become competent in a foreign language, they note, however long it is compulsory. And in many countries, mandatory language teaching would simply be impractical.\n\nWhere a country stands on this usually reflects its resources and priorities.",
    spans: [
      ["p3784", "studying another language builds understanding of other cultures and the people who belong to them"],
      [
        "p3787",
        "Not every pupil will become competent in a foreign language, they note, however long it is compulsory",
      ],
      ["p3786", "in many countries, mandatory language teaching would simply be impractical"],
    ],
    errorSpans: [
      "They also point to the European Union's goal that every citizen should learn two languages in addition to their mother tongue",
    ],
    note: "invented extra pro claim citing the EU goal of two languages besides the mother tongue",
  },
  {
    topic: "perspectrum-511",
    kind: "partial-hallucination",
    pro: ["p3781", "p3780"],
    con: ["p3789"],
    response:
      "Opinions on compulsory foreign language lessons differ sharply.\n\nSupporters stress the economic angle: employees who speak several languages make their country's businesses more competitive abroad. They also rank languages alongside maths and English as an essential skill every child should acquire.\n\nOpponents focus on English-speaking countries. There, they argue, learning a foreign language serves no real purpose at all, because English is spoken everywhere that matters.\n\nUltimately, it depends on how one weighs these concerns.",
    spans: [
      ["p3781", "employees who speak several languages make their country's businesses more competitive abroad"],
      [
        "p3780",
        "They also rank languages alongside maths and English as an essential skill every child should acquire",
      ],
      [
        "p3789",
        "Opponents focus on English-speaking countries. There, they argue, learning a foreign language serves no real purpose at all, because English is spoken everywhere that matters",
      ],
    ],
    errorSpans: [
      "learning a foreign language serves no real purpose at all, because English is spoken everywhere that matters",
    ],
    note: "p3789 says there is much less need in English-speaking countries; the response says there is no purpose at all",
  },
  {
    topic: "perspectrum-515",
    kind: "clean",
    pro: ["p25472", "p5034"],
    con: ["p5030", "p3818"],
    response:
      "Should homework be banned? Researchers, teachers and parents have argued about this for years.\n\nThose in favour of scrapping it note that, for young children at least, studies have found no clear evidence that homework improves learning. They also argue it widens inequality: pupils from low-income homes may lack a quiet room, a computer or a parent with time to help.\n\nThose against a ban believe homework raises achievement, pointing to better grades and test results among students who do it. They also see it as a bridge connecting the child, the school and the family at home.\n\nThe answer may well differ by age group.",
    spans: [
      ["p25472", "for young children at least, studies have found no clear evidence that homework improves learning"],
      [
        "p5034",
        "it widens inequality: pupils from low-income homes may lack a quiet room, a computer or a parent with time to help",
      ],
      ["p5030", "homework raises achievement, pointing to better grades and test results among students who do it"],
      ["p3818", "They also see it as a bridge connecting the child, the school and the family at home"],
    ],
  },
  {
    topic: "perspectrum-515",
    kind: "clean",
    pro: ["p7508", "p3747", "p5033"],
    con: ["p5031"],
    response:
      "There's no simple answer to whether homework should be abolished.\n\nCritics make several points. Children need time to run around and play as well as to study, and homework eats into the physical activity that balances a day of lessons. Piling on assignments can also do real harm, from stress to lost sleep. And in their view, hours of homework can leave students resenting school and losing their appetite for learning.\n\nDefenders see homework as reinforcement: it helps lessons stick and teaches good study habits and life skills such as time management and self-discipline.\n\nUltimately, how much homework is too much may matter more than whether it exists at all.",
    spans: [
      [
        "p7508",
        "Children need time to run around and play as well as to study, and homework eats into the physical activity that balances a day of lessons",
      ],
      ["p5033", "Piling on assignments can also do real harm, from stress to lost sleep"],
      ["p3747", "hours of homework can leave students resenting school and losing their appetite for learning"],
      [
        "p5031",
        "it helps lessons stick and teaches good study habits and life skills such as time management and self-discipline",
      ],
    ],
  },
  {
    topic: "perspectrum-515",
    kind: "coverage",
    pro: ["p3747", "p5034"],
    con: ["p3817", "p5032"],
    response:
      "Banning homework is a popular idea with many pupils and a worrying one for many teachers. Supporters of a ban say homework turns children off learning, making school feel like a chore that follows them home. They add that it puts poorer students at a disadvantage, since they are less likely to have the space, equipment or help they need. Opponents reply that homework gives students a chance to practise what they have been taught in class, which is how skills become secure. The debate is unlikely to be settled soon.",
    spans: [
      ["p3747", "homework turns children off learning, making school feel like a chore that follows them home"],
      [
        "p5034",
        "it puts poorer students at a disadvantage, since they are less likely to have the space, equipment or help they need",
      ],
      [
        "p3817",
        "homework gives students a chance to practise what they have been taught in class, which is how skills become secure",
      ],
    ],
    dropped: ["p5032"],
    note: "drops the con argument that homework lets parents be involved in their child's learning",
  },
  {
    topic: "perspectrum-515",
    kind: "hallucination",
    pro: ["p5033"],
    con: ["p3819", "p3817"],
    response:
      "Homework divides opinion.\n\nOn one side are those who warn that excessive homework can be damaging to children's wellbeing. Some go further, arguing that it drains the enthusiasm for learning that schools are supposed to cultivate.\n\nOn the other side are those who consider homework indispensable. It lets students explore material beyond what fits into the school day, they say, and gives them a chance to practise the skills covered in class until they stick.\n\nWhich side you find more persuasive may depend on the age of the children involved.",
    spans: [
      ["p5033", "excessive homework can be damaging to children's wellbeing"],
      [
        "p3819",
        "those who consider homework indispensable. It lets students explore material beyond what fits into the school day",
      ],
      ["p3817", "gives them a chance to practise the skills covered in class until they stick"],
    ],
    errorSpans: [
      "Some go further, arguing that it drains the enthusiasm for learning that schools are supposed to cultivate",
    ],
    extra: "p3747",
    note: "states the unused pro argument that homework puts students off learning",
  },
  {
    topic: "perspectrum-525",
    kind: "clean",
    pro: ["p3880", "p3878"],
    con: ["p3881", "p3883"],
    response:
      "Is community radio good for democracy? Its supporters and critics see the same stations very differently.\n\nSupporters argue that community stations counterbalance the dominance of state and corporate broadcasters, giving smaller voices a fair chance to be heard. They also value the way community radio lets ordinary people speak for themselves instead of having the views of the powerful broadcast at them.\n\nCritics worry that such stations can become loudspeakers for extremists. And they argue that a radio station is only a tool: there is nothing inherently democratic about it, and it can serve any cause.\n\nWhether it strengthens democracy may depend on who runs it and how.",
    spans: [
      [
        "p3880",
        "community stations counterbalance the dominance of state and corporate broadcasters, giving smaller voices a fair chance to be heard",
      ],
      [
        "p3878",
        "community radio lets ordinary people speak for themselves instead of having the views of the powerful broadcast at them",
      ],
      ["p3881", "such stations can become loudspeakers for extremists"],
      [
        "p3883",
        "a radio station is only a tool: there is nothing inherently democratic about it, and it can serve any cause",
      ],
    ],
  },
  {
    topic: "perspectrum-525",
    kind: "clean",
    pro: ["p3878"],
    con: ["p3881"],
    response:
      "Community radio's defenders say it hands the microphone to ordinary people, letting local voices be heard rather than repeating the messages of those in power. Its critics are warier, arguing that stations with little oversight can end up amplifying extremist views. Both arguments have some force, and the impact of any particular station probably depends on how it is run and regulated.",
    spans: [
      [
        "p3878",
        "it hands the microphone to ordinary people, letting local voices be heard rather than repeating the messages of those in power",
      ],
      ["p3881", "stations with little oversight can end up amplifying extremist views"],
    ],
  },
  {
    topic: "perspectrum-525",
    kind: "coverage",
    pro: ["p3880", "p3878"],
    con: ["p3883"],
    response:
      "Views on community radio and democracy vary. Enthusiasts see these stations as a way of putting ordinary people on the air, so that public debate reflects what communities think rather than what elites want them to hear. Sceptics respond that community radio is simply a medium: a transmitter and a studio carry no democratic value in themselves, and the same infrastructure could serve very different ends. Ultimately, it is a question of how such stations are used.",
    spans: [
      [
        "p3878",
        "a way of putting ordinary people on the air, so that public debate reflects what communities think rather than what elites want them to hear",
      ],
      [
        "p3883",
        "community radio is simply a medium: a transmitter and a studio carry no democratic value in themselves, and the same infrastructure could serve very different ends",
      ],
    ],
    dropped: ["p3880"],
    note: "drops the pro argument that community radio evens the field against state and corporate broadcasters",
  },
  {
    topic: "perspectrum-525",
    kind: "partial-coverage",
    pro: ["p3880", "p3878"],
    con: ["p3881", "p3883"],
    response:
      "There's genuine disagreement here.\n\nSupporters argue that community radio gives ordinary people their own voice instead of amplifying the messages of the powerful. It also, they say, offers a counterweight to state-run broadcasters, which would otherwise dominate the airwaves.\n\nCritics are unconvinced. They warn that such stations can simply hand a megaphone to extremist groups. And they insist that community radio is just a platform, with nothing about it that is democratic by nature.\n\nThe answer probably varies from one station, and one country, to the next.",
    spans: [
      [
        "p3878",
        "community radio gives ordinary people their own voice instead of amplifying the messages of the powerful",
      ],
      [
        "p3880",
        "It also, they say, offers a counterweight to state-run broadcasters, which would otherwise dominate the airwaves",
      ],
      ["p3881", "such stations can simply hand a megaphone to extremist groups"],
      ["p3883", "community radio is just a platform, with nothing about it that is democratic by nature"],
    ],
    partial: "p3880",
    note: "p3880 keeps the counterweight to state broadcasters but drops the corporate broadcasters",
  },
  {
    topic: "perspectrum-542",
    kind: "clean",
    pro: ["p1776", "p22520"],
    con: ["p1779", "p3992"],
    response:
      "Free university tuition is a question of who should pay for higher education, and opinions differ sharply.\n\nSupporters argue that society as a whole gains from a well-educated population, through a more skilled workforce, higher productivity and stronger public services. They also point to the weight of fees and student loans, which can leave young adults starting their working lives in heavy debt.\n\nOpponents say the bill would be unaffordable: funding universal free tuition would cost the state far more than it could sustain. They also consider it unfair, since graduates, who typically go on to earn more, would have their education paid for by all taxpayers, including those who never attend university.\n\nHow one weighs these points often depends on one's view of education as a public or private good.",
    spans: [
      [
        "p1776",
        "society as a whole gains from a well-educated population, through a more skilled workforce, higher productivity and stronger public services",
      ],
      [
        "p22520",
        "the weight of fees and student loans, which can leave young adults starting their working lives in heavy debt",
      ],
      [
        "p1779",
        "the bill would be unaffordable: funding universal free tuition would cost the state far more than it could sustain",
      ],
      [
        "p3992",
        "They also consider it unfair, since graduates, who typically go on to earn more, would have their education paid for by all taxpayers, including those who never attend university",
      ],
    ],
  },
  {
    topic: "perspectrum-542",
    kind: "clean",
    pro: ["p22505"],
    con: ["p1781", "p3993", "p1780"],
    response:
      "Should university be free? Advocates frame higher education as an individual right, something every person should be able to pursue regardless of their means.\n\nCritics raise several objections. Free tuition, they argue, tends to drive down quality, as universities stretched by limited public funds cut corners. If the state pays, it also gains control over admissions and curricula, which they believe does more harm than good. And they see free university education as an inefficient way to spend public money that could do more good elsewhere.\n\nReasonable people weigh these principles differently.",
    spans: [
      [
        "p22505",
        "Advocates frame higher education as an individual right, something every person should be able to pursue regardless of their means",
      ],
      [
        "p1781",
        "Free tuition, they argue, tends to drive down quality, as universities stretched by limited public funds cut corners",
      ],
      [
        "p3993",
        "If the state pays, it also gains control over admissions and curricula, which they believe does more harm than good",
      ],
      [
        "p1780",
        "free university education as an inefficient way to spend public money that could do more good elsewhere",
      ],
    ],
  },
  {
    topic: "perspectrum-542",
    kind: "hallucination",
    pro: ["p22520", "p22505"],
    con: ["p1780"],
    response:
      "The question of free university education touches on fairness, economics and the purpose of higher education.\n\nSupporters emphasise the burden on students: tuition fees and loans, they say, saddle young people with debts that shape their choices for years. They also regard access to higher education as a right belonging to every individual. And they note that the country itself profits when more of its citizens carry university-level skills into the workforce.\n\nOpponents argue that free tuition is a poor use of limited public funds, which could be allocated more efficiently elsewhere.\n\nIn the end, it's a question of priorities.",
    spans: [
      ["p22520", "tuition fees and loans, they say, saddle young people with debts that shape their choices for years"],
      ["p22505", "They also regard access to higher education as a right belonging to every individual"],
      [
        "p1780",
        "free tuition is a poor use of limited public funds, which could be allocated more efficiently elsewhere",
      ],
    ],
    errorSpans: [
      "And they note that the country itself profits when more of its citizens carry university-level skills into the workforce",
    ],
    extra: "p1776",
    note: "states the unused pro argument that the state benefits from a university-educated populace",
  },
  {
    topic: "perspectrum-542",
    kind: "both",
    pro: ["p1776", "p22505"],
    con: ["p1779", "p1781"],
    response:
      "Whether university should be free is debated in many countries.\n\nAdvocates argue that the nation reaps the rewards of an educated population, since graduates contribute skills that benefit the economy and society.\n\nCritics counter that the public purse cannot bear the cost of making university free for everyone. They also worry about standards, warning that free systems tend to become underfunded and that teaching quality declines as a result. Studies from Scotland, they add, suggest that abolishing fees has done little to widen access for students from poorer backgrounds.\n\nEach side's position reflects a broader view about the role of the state.",
    spans: [
      [
        "p1776",
        "the nation reaps the rewards of an educated population, since graduates contribute skills that benefit the economy and society",
      ],
      ["p1779", "the public purse cannot bear the cost of making university free for everyone"],
      [
        "p1781",
        "They also worry about standards, warning that free systems tend to become underfunded and that teaching quality declines as a result",
      ],
    ],
    errorSpans: [
      "Studies from Scotland, they add, suggest that abolishing fees has done little to widen access for students from poorer backgrounds",
    ],
    dropped: ["p22505"],
    note: "drops the pro argument that higher education is an individual right; adds an invented con claim about Scottish studies on access",
  },
];
