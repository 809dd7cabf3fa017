import type { HandExample } from "./a-types.ts";

/** Batch 6: held-out topics perspectrum-731 to perspectrum-838. */
export const batch6: HandExample[] = [
  {
    topic: "perspectrum-731",
    kind: "clean",
    pro: ["p6043", "p6044"],
    con: ["p6048", "p6046"],
    response:
      "Scrapping the national curriculum would be a major change, and educators disagree about whether it would help. Critics of the curriculum say it treats pupils as a mass to be instructed, leaving little room for learning tailored to the individual. They also argue that it has smothered creativity and innovation, discouraging both new ideas and new ways of adding value. Defenders reply that the curriculum establishes clear standards for what should be taught and learned. They add that it gives parents and the government shared benchmarks for judging what pupils have achieved. The debate ultimately concerns how much central direction schools need.",
    spans: [
      [
        "p6043",
        "it treats pupils as a mass to be instructed, leaving little room for learning tailored to the individual",
      ],
      ["p6044", "it has smothered creativity and innovation, discouraging both new ideas and new ways of adding value"],
      ["p6048", "the curriculum establishes clear standards for what should be taught and learned"],
      ["p6046", "it gives parents and the government shared benchmarks for judging what pupils have achieved"],
    ],
  },
  {
    topic: "perspectrum-731",
    kind: "coverage",
    pro: ["p6042", "p6043"],
    con: ["p6045", "p6046"],
    response:
      "Should the national curriculum be scrapped? Those who say yes describe it as a relic of a factory-style school system, built for an economy and a world that have since disappeared. Those who say no believe the curriculum can be substantially improved rather than abandoned. They also value it as a common yardstick that lets parents and the government see what pupils have achieved. Ultimately, the choice is between reform and replacement.",
    spans: [
      [
        "p6042",
        "a relic of a factory-style school system, built for an economy and a world that have since disappeared",
      ],
      ["p6045", "the curriculum can be substantially improved rather than abandoned"],
      ["p6046", "a common yardstick that lets parents and the government see what pupils have achieved"],
    ],
    dropped: ["p6043"],
    note: "no personalised learning / mass instruction (p6043) never mentioned",
  },
  {
    topic: "perspectrum-731",
    kind: "hallucination",
    pro: ["p6042", "p6044"],
    con: ["p6048"],
    response:
      "The national curriculum has loyal defenders as well as persistent critics. Opponents of the curriculum argue that it was designed for an industrial, factory-like model of schooling that no longer matches the modern world. They also blame it for stifling creativity and innovation in the classroom. Supporters see it as the backbone of teaching standards, setting out what the teaching and learning programme should achieve. Rather than scrapping it, they argue, policymakers should recognise that the curriculum has plenty of room for substantial improvement. Where one stands often depends on one's experience of schools.",
    spans: [
      [
        "p6042",
        "it was designed for an industrial, factory-like model of schooling that no longer matches the modern world",
      ],
      ["p6044", "stifling creativity and innovation in the classroom"],
      [
        "p6048",
        "the backbone of teaching standards, setting out what the teaching and learning programme should achieve",
      ],
    ],
    errorSpans: [
      "Rather than scrapping it, they argue, policymakers should recognise that the curriculum has plenty of room for substantial improvement",
    ],
    extra: "p6045",
    note: "unused con argument p6045 (the curriculum can be substantially improved) stated",
  },
  {
    topic: "perspectrum-731",
    kind: "clean",
    pro: ["p6042"],
    con: ["p6045", "p6048"],
    response:
      "There's no consensus on whether the national curriculum should go. Its critics see it as the product of a factory system of education, designed for a world that no longer exists. Its defenders disagree on two counts. They believe the curriculum can be improved substantially without being thrown out. And they point out that it sets the standards that underpin the whole teaching and learning programme. How one answers depends on whether the problems seem fixable within the existing framework.",
    spans: [
      ["p6042", "the product of a factory system of education, designed for a world that no longer exists"],
      ["p6045", "the curriculum can be improved substantially without being thrown out"],
      ["p6048", "it sets the standards that underpin the whole teaching and learning programme"],
    ],
  },
  {
    topic: "perspectrum-771",
    kind: "clean",
    pro: ["p6288", "p7454"],
    con: ["p6309", "p6289"],
    response:
      "Whether an effective state requires high taxes is one of the oldest questions in politics. Those who say yes argue that taxes fund the shared programmes everyone relies on, from roads to schools. They also see taxation as a tool for redistributing wealth and narrowing the gap between high and low incomes. Those who say no warn that higher taxes push people and companies to find ways of avoiding them. They also argue that heavy taxation erodes the incentive to work, makes people more dependent on the state and, pushed too far, leaves citizens poorer and less free. Most countries land somewhere between these positions.",
    spans: [
      ["p6288", "taxes fund the shared programmes everyone relies on, from roads to schools"],
      ["p7454", "taxation as a tool for redistributing wealth and narrowing the gap between high and low incomes"],
      ["p6309", "higher taxes push people and companies to find ways of avoiding them"],
      [
        "p6289",
        "heavy taxation erodes the incentive to work, makes people more dependent on the state and, pushed too far, leaves citizens poorer and less free",
      ],
    ],
  },
  {
    topic: "perspectrum-771",
    kind: "both",
    pro: ["p6288", "p7454"],
    con: ["p6309", "p6289"],
    response:
      "People disagree about whether high taxes are necessary for an effective state. Supporters point out that common programmes such as health care and infrastructure have to be paid for somehow. They also argue that taxes help redistribute wealth and correct income inequality. They often cite the Nordic countries, which combine some of the world's highest tax burdens with strong public services and top rankings in happiness surveys. Opponents contend that high taxes sap people's incentive, breed dependence on government and, if taken too far, impoverish and oppress citizens. Ultimately, the answer depends on what one expects the state to do.",
    spans: [
      ["p6288", "common programmes such as health care and infrastructure have to be paid for somehow"],
      ["p7454", "taxes help redistribute wealth and correct income inequality"],
      [
        "p6289",
        "high taxes sap people's incentive, breed dependence on government and, if taken too far, impoverish and oppress citizens",
      ],
    ],
    errorSpans: [
      "They often cite the Nordic countries, which combine some of the world's highest tax burdens with strong public services and top rankings in happiness surveys",
    ],
    dropped: ["p6309"],
    note: "tax avoidance (p6309) dropped; invented extra pro claim about the Nordic countries",
  },
  {
    topic: "perspectrum-771",
    kind: "partial-coverage",
    pro: ["p6288"],
    con: ["p6289", "p6309"],
    response:
      "Are high taxes needed for an effective state? Supporters say yes: common programmes, the services everyone shares, have to be funded, and taxes are how that happens. Critics see two risks. First, they argue that high taxes weaken people's incentive to work and invest. Second, they note that the higher taxes climb, the more effort people put into avoiding them. Most debates on this topic are really about where the right level lies rather than whether taxes are needed at all.",
    spans: [
      ["p6288", "common programmes, the services everyone shares, have to be funded, and taxes are how that happens"],
      ["p6289", "high taxes weaken people's incentive to work and invest"],
      ["p6309", "the higher taxes climb, the more effort people put into avoiding them"],
    ],
    dropped: ["p6289"],
    note: "p6289 only partly covered: lost incentive kept, dependence on government and impoverishment/oppression dropped",
  },
  {
    topic: "perspectrum-830",
    kind: "clean",
    pro: ["p6666", "p6667"],
    con: ["p6673", "p6669"],
    response:
      "Abolishing university fees is a popular idea with students, but it raises hard questions about funding. Supporters point out that fees come on top of books, rent and everyday living costs, making university too expensive for many students. They also believe that free tuition would improve social mobility, opening doors for people from poorer backgrounds. Opponents warn that without fee income, universities would be short of money and forced to cut the number of places they offer. They also see a degree as an investment that pays off for the graduate, which in their view justifies asking students to contribute. The debate centres on who should pay for higher education.",
    spans: [
      [
        "p6666",
        "fees come on top of books, rent and everyday living costs, making university too expensive for many students",
      ],
      ["p6667", "free tuition would improve social mobility, opening doors for people from poorer backgrounds"],
      [
        "p6673",
        "without fee income, universities would be short of money and forced to cut the number of places they offer",
      ],
      ["p6669", "a degree as an investment that pays off for the graduate"],
    ],
  },
  {
    topic: "perspectrum-830",
    kind: "coverage",
    pro: ["p6667", "p6668"],
    con: ["p6671", "p6672"],
    response:
      "Should university fees be scrapped? Proponents argue that getting rid of fees would boost social mobility. They add that it could pave the way for a graduate tax, so that students pay nothing when they start and contribute only later. Opponents argue that paying for their own education gives students ownership of it and a sense of responsibility for how they use it. There is little agreement on which model works best, and different countries have chosen very different approaches.",
    spans: [
      ["p6667", "getting rid of fees would boost social mobility"],
      [
        "p6668",
        "it could pave the way for a graduate tax, so that students pay nothing when they start and contribute only later",
      ],
      [
        "p6671",
        "paying for their own education gives students ownership of it and a sense of responsibility for how they use it",
      ],
    ],
    dropped: ["p6672"],
    note: "tuition fees improve the education received (p6672) never mentioned",
  },
  {
    topic: "perspectrum-830",
    kind: "clean",
    pro: ["p6668"],
    con: ["p6671", "p6670"],
    response:
      "Those in favour of abolishing university fees suggest replacing fees with a graduate tax, under which students would pay nothing upfront. Those against make two points. Paying for their studies, they argue, gives students control over their education and makes them take responsibility for it. They also regard some financial pressure as a normal part of student life, something previous generations managed too. The right answer may depend on the wider system of student support.",
    spans: [
      ["p6668", "replacing fees with a graduate tax, under which students would pay nothing upfront"],
      [
        "p6671",
        "Paying for their studies, they argue, gives students control over their education and makes them take responsibility for it",
      ],
      ["p6670", "some financial pressure as a normal part of student life"],
    ],
  },
  {
    topic: "perspectrum-830",
    kind: "perspective-confusion",
    pro: ["p6666", "p6667"],
    con: ["p6673", "p6669"],
    response:
      "Whether to scrap university fees is a question with strong feelings on both sides. Advocates note that tuition, on top of books, accommodation and other living costs, is simply too much for many students to bear. Scrapping fees, they argue, would also increase social mobility. And they describe a university education as an investment, one that society as a whole should be willing to make. Critics worry that universities would lose vital funding, which would sharply limit the number of places available. Balancing access with funding is the central challenge.",
    spans: [
      [
        "p6666",
        "tuition, on top of books, accommodation and other living costs, is simply too much for many students to bear",
      ],
      ["p6667", "Scrapping fees, they argue, would also increase social mobility"],
      ["p6673", "universities would lose vital funding, which would sharply limit the number of places available"],
    ],
    errorSpans: [
      "they describe a university education as an investment, one that society as a whole should be willing to make",
    ],
    dropped: ["p6669"],
    note: "con argument p6669 (university education is an investment) presented as the advocates' argument",
  },
  {
    topic: "perspectrum-835",
    kind: "clean",
    pro: ["p6736", "p6737"],
    con: ["p6745", "p6219"],
    response:
      "The role of carbon dioxide in global warming is a question on which positions are strongly held. Those who doubt that CO2 causes warming argue that no scientifically sound mechanism has been shown by which it could do so. They also note that global temperatures have always fluctuated, regardless of rising CO2 levels. Those on the other side point out that many scientists believe CO2 does cause warming. They also cite the human toll, arguing that lives are being lost and the climate is visibly changing. Readers may want to examine the evidence behind each claim.",
    spans: [
      ["p6736", "no scientifically sound mechanism has been shown by which it could do so"],
      ["p6737", "global temperatures have always fluctuated, regardless of rising CO2 levels"],
      ["p6745", "many scientists believe CO2 does cause warming"],
      ["p6219", "lives are being lost and the climate is visibly changing"],
    ],
  },
  {
    topic: "perspectrum-835",
    kind: "hallucination",
    pro: ["p6738", "p6739"],
    con: ["p6745", "p6219"],
    response:
      "Whether CO2 drives global warming is a question that still generates heated argument. Skeptics suggest that the warming we observe may have other causes. They also claim that carbon dioxide does not actually trap heat. In addition, they argue that the whole theory rests on computer models and has never been confirmed by direct observation. Others respond that a great many scientists are convinced CO2 is responsible. They point to the human consequences as well: people are dying and the climate is shifting. The weight of each argument is for the reader to judge.",
    spans: [
      ["p6738", "the warming we observe may have other causes"],
      ["p6739", "carbon dioxide does not actually trap heat"],
      ["p6745", "a great many scientists are convinced CO2 is responsible"],
      ["p6219", "people are dying and the climate is shifting"],
    ],
    errorSpans: [
      "In addition, they argue that the whole theory rests on computer models and has never been confirmed by direct observation",
    ],
    extra: "p6741",
    note: "unused pro argument p6741 (based on computer models, no empirical confirmation) stated",
  },
  {
    topic: "perspectrum-835",
    kind: "coverage",
    pro: ["p6741", "p6738"],
    con: ["p6745", "p6219"],
    response:
      "Is it true that CO2 does not cause global warming? Those who hold this view make two arguments. They say the case for CO2-driven warming relies on computer simulations rather than empirical confirmation. And they argue that other factors could explain the warming trend. Those who reject this view note that a large number of scientists believe CO2 does cause warming. The question is one where it is worth looking closely at the evidence and its sources.",
    spans: [
      ["p6741", "the case for CO2-driven warming relies on computer simulations rather than empirical confirmation"],
      ["p6738", "other factors could explain the warming trend"],
      ["p6745", "a large number of scientists believe CO2 does cause warming"],
    ],
    dropped: ["p6219"],
    note: "lives lost and the climate changing (p6219) never mentioned",
  },
  {
    topic: "perspectrum-838",
    kind: "clean",
    pro: ["p6785", "p6825"],
    con: ["p6788", "p6828"],
    response:
      "Legalising prostitution as a way to protect sex workers from HIV/AIDS is a contested proposal. Supporters argue that sex workers would be safer if their work were legal and regulated. They also say legalisation would keep prostitution from being driven underground, where it is harder to reach with health services. Opponents fear the proposal would make the HIV problem worse rather than better. They also argue that even legal prostitution continues to exploit vulnerable people. Views on this often depend on broader beliefs about sex work itself.",
    spans: [
      ["p6785", "sex workers would be safer if their work were legal and regulated"],
      [
        "p6825",
        "legalisation would keep prostitution from being driven underground, where it is harder to reach with health services",
      ],
      ["p6788", "the proposal would make the HIV problem worse rather than better"],
      ["p6828", "even legal prostitution continues to exploit vulnerable people"],
    ],
  },
  {
    topic: "perspectrum-838",
    kind: "both",
    pro: ["p6824", "p6785"],
    con: ["p6827", "p6830"],
    response:
      "Legalising prostitution on public-health grounds is a proposal that divides even people who share the same goals. Those in favour argue that legalisation would make prostitutes safer. Those against raise several concerns. They believe the law should not condone behaviour they regard as illicit. They also argue that legalisation would do nothing to end the violence associated with prostitution. And they see legal prostitution as harmful to women's rights more broadly, since it treats women's bodies as commodities. Ultimately, the debate turns on competing views of harm reduction and morality.",
    spans: [
      ["p6785", "legalisation would make prostitutes safer"],
      ["p6827", "the law should not condone behaviour they regard as illicit"],
      ["p6830", "legalisation would do nothing to end the violence associated with prostitution"],
    ],
    errorSpans: [
      "they see legal prostitution as harmful to women's rights more broadly, since it treats women's bodies as commodities",
    ],
    extra: "p6790",
    dropped: ["p6824"],
    note: "women with nothing turn to prostitution to survive (p6824) dropped; unused con argument p6790 (women's rights) stated",
  },
  {
    topic: "perspectrum-838",
    kind: "clean",
    pro: ["p6826"],
    con: ["p6829", "p6790"],
    response:
      "Legalisation is usually discussed in terms of health and safety, but the arguments go wider. One argument in favour is that prostitution helps prevent some sex crimes, and that legalising it would recognise that role. Opponents raise two concerns. They fear that legalising prostitution would set a precedent leading to a similar approach to drugs. They also argue that it would be detrimental to women's rights. Any change to the law would need to weigh public health goals against these broader social concerns.",
    spans: [
      ["p6826", "prostitution helps prevent some sex crimes"],
      ["p6829", "legalising prostitution would set a precedent leading to a similar approach to drugs"],
      ["p6790", "it would be detrimental to women's rights"],
    ],
  },
  {
    topic: "perspectrum-838",
    kind: "clean",
    pro: ["p6785", "p6824"],
    con: ["p6830", "p6827", "p6788"],
    response:
      "This is a sensitive question, and people disagree about it for both practical and moral reasons. Those in favour say legal status would make sex workers safer. They also point out that many women who become prostitutes do so because they have nothing else and need to survive. Those opposed make three arguments. Legalisation, they say, would not solve the violence that surrounds prostitution. The law, in their view, should not endorse illicit behaviour. And they believe the proposal would actually worsen the spread of HIV rather than contain it. Each argument rests on different assumptions about how the law shapes behaviour.",
    spans: [
      ["p6785", "legal status would make sex workers safer"],
      ["p6824", "many women who become prostitutes do so because they have nothing else and need to survive"],
      ["p6830", "Legalisation, they say, would not solve the violence that surrounds prostitution"],
      ["p6827", "The law, in their view, should not endorse illicit behaviour"],
      ["p6788", "the proposal would actually worsen the spread of HIV rather than contain it"],
    ],
  },
];
