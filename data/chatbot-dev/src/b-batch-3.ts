import type { HandExampleB } from "./b-types.ts";

/** Batch 3: Julian Assange, underground nuclear waste storage, school uniforms, year-round schooling, arts degrees. */
export const batch3: HandExampleB[] = [
  {
    topic: "perspectrum-489",
    kind: "clean",
    pro: ["p3631", "p3633"],
    con: ["p3634", "p3636"],
    response:
      "Whether Julian Assange counts as a journalist is partly a legal question and partly a question of definitions.\n\nThose who say he is argue that our idea of a journalist has to catch up with new forms of mass communication. By that standard Assange qualifies: he gathers material, organises it and publishes it to the world, which is what journalists do. They add that plenty of people with press credentials are more interested in seeing their byline than in reporting, and Assange has a stronger claim to the title than many of them.\n\nThose who say he isn't see him as driven mainly by self-promotion rather than serious reporting. They also note that WikiLeaks is not a news outlet; its sole purpose is to release classified material, an aim no genuine news organisation shares.\n\nThe answer may depend on which definition you accept.",
    spans: [
      [
        "p3631",
        "our idea of a journalist has to catch up with new forms of mass communication. By that standard Assange qualifies: he gathers material, organises it and publishes it to the world, which is what journalists do",
      ],
      [
        "p3633",
        "plenty of people with press credentials are more interested in seeing their byline than in reporting, and Assange has a stronger claim to the title than many of them",
      ],
      ["p3634", "see him as driven mainly by self-promotion rather than serious reporting"],
      [
        "p3636",
        "WikiLeaks is not a news outlet; its sole purpose is to release classified material, an aim no genuine news organisation shares",
      ],
    ],
  },
  {
    topic: "perspectrum-489",
    kind: "clean",
    pro: ["p3631"],
    con: ["p3636"],
    response:
      "Is Julian Assange a journalist? Supporters of that label say the definition of journalism needs updating for the internet age; since he collects, sorts and disseminates information, he is doing a journalist's job. Critics disagree, arguing that WikiLeaks exists only to publish secret documents, which sets it apart from any real news organisation. The disagreement is as much about what journalism means as about Assange himself.",
    spans: [
      [
        "p3631",
        "the definition of journalism needs updating for the internet age; since he collects, sorts and disseminates information, he is doing a journalist's job",
      ],
      [
        "p3636",
        "WikiLeaks exists only to publish secret documents, which sets it apart from any real news organisation",
      ],
    ],
  },
  {
    topic: "perspectrum-489",
    kind: "hallucination",
    pro: ["p3633"],
    con: ["p3634", "p3636"],
    response:
      "Opinions on Assange's status differ sharply.\n\nSome defend the journalist label by comparison: many people who call themselves journalists mostly want their names in the paper, and Assange, they argue, has a far better claim to the title than they do. Press-freedom groups such as Reporters Without Borders have also defended him, warning that prosecuting him threatens journalists everywhere.\n\nOthers see him quite differently. In their view he cares chiefly about his own profile, not about serious journalism. And they stress that WikiLeaks is not a news organisation at all: its whole purpose is leaking classified material, an agenda no legitimate newsroom would adopt.\n\nHow one answers often reflects one's view of WikiLeaks itself.",
    spans: [
      [
        "p3633",
        "many people who call themselves journalists mostly want their names in the paper, and Assange, they argue, has a far better claim to the title than they do",
      ],
      ["p3634", "In their view he cares chiefly about his own profile, not about serious journalism"],
      [
        "p3636",
        "WikiLeaks is not a news organisation at all: its whole purpose is leaking classified material, an agenda no legitimate newsroom would adopt",
      ],
    ],
    errorSpans: [
      "Press-freedom groups such as Reporters Without Borders have also defended him, warning that prosecuting him threatens journalists everywhere",
    ],
    note: "invented extra pro claim: press-freedom groups (Reporters Without Borders) defend him",
  },
  {
    topic: "perspectrum-489",
    kind: "partial-hallucination",
    pro: ["p3631", "p3633"],
    con: ["p3634"],
    response:
      "There's no simple answer here.\n\nThose who consider Assange a journalist make two points. The concept of journalism, they argue, must be rethought for an era of new mass media, and under any sensible modern definition someone who gathers, collates and disseminates information is a journalist. They also note that the profession already includes many people who simply enjoy seeing their names in print; compared with them, Assange deserves the title more.\n\nThose who reject the label say his motives give him away: everything he does, in their view, is purely about self-promotion, with no journalistic purpose whatsoever.\n\nUltimately, the answer depends on how one defines the role.",
    spans: [
      [
        "p3631",
        "The concept of journalism, they argue, must be rethought for an era of new mass media, and under any sensible modern definition someone who gathers, collates and disseminates information is a journalist",
      ],
      [
        "p3633",
        "the profession already includes many people who simply enjoy seeing their names in print; compared with them, Assange deserves the title more",
      ],
      [
        "p3634",
        "his motives give him away: everything he does, in their view, is purely about self-promotion, with no journalistic purpose whatsoever",
      ],
    ],
    errorSpans: [
      "everything he does, in their view, is purely about self-promotion, with no journalistic purpose whatsoever",
    ],
    note: "p3634 says he is mostly interested in self-promotion; the response says purely, with no journalistic purpose at all",
  },
  {
    topic: "perspectrum-493",
    kind: "clean",
    pro: ["p3656", "p3655"],
    con: ["p3657", "p3658"],
    response:
      "Storing nuclear waste deep underground is the approach many governments favour, but it is not without critics.\n\nProponents say geological disposal is safe: sealed in stable rock far below the surface, the waste is isolated from people and groundwater. They also see it as unavoidable, since the waste already exists and has to go somewhere for thousands of years.\n\nCritics object on cost, noting that building and monitoring deep repositories is extremely expensive. And they argue that there are better alternatives to burying it, such as reprocessing spent fuel.\n\nWhich approach is right depends on how one balances cost, risk and certainty.",
    spans: [
      [
        "p3656",
        "geological disposal is safe: sealed in stable rock far below the surface, the waste is isolated from people and groundwater",
      ],
      [
        "p3655",
        "They also see it as unavoidable, since the waste already exists and has to go somewhere for thousands of years",
      ],
      ["p3657", "building and monitoring deep repositories is extremely expensive"],
      ["p3658", "there are better alternatives to burying it, such as reprocessing spent fuel"],
    ],
  },
  {
    topic: "perspectrum-493",
    kind: "coverage",
    pro: ["p3656", "p3655"],
    con: ["p3657"],
    response:
      "Underground storage of nuclear waste draws mixed reactions. Advocates emphasise safety, pointing out that deep repositories put hazardous waste beyond the reach of people and the environment for the very long periods it remains dangerous. Opponents counter that such facilities are enormously costly to build, operate and monitor over decades. These two considerations, safety and cost, tend to dominate public discussion of the issue, and neither side expects the argument to be settled soon.",
    spans: [
      [
        "p3656",
        "Advocates emphasise safety, pointing out that deep repositories put hazardous waste beyond the reach of people and the environment for the very long periods it remains dangerous",
      ],
      ["p3657", "such facilities are enormously costly to build, operate and monitor over decades"],
    ],
    dropped: ["p3655"],
    note: "drops the pro argument that underground storage is necessary",
  },
  {
    topic: "perspectrum-493",
    kind: "both",
    pro: ["p3656"],
    con: ["p3657", "p3658"],
    response:
      "Should nuclear waste be stored underground? Views differ.\n\nSupporters argue that burying it in deep, stable geological formations is a safe way to keep radioactive material isolated. They add that there is really no choice: the waste exists, and some form of permanent disposal is unavoidable.\n\nOpponents focus on the bill. Designing, digging and guarding a deep repository costs vast sums, they say, and those costs fall on taxpayers for generations.\n\nUltimately, the answer depends on how one weighs these concerns.",
    spans: [
      ["p3656", "burying it in deep, stable geological formations is a safe way to keep radioactive material isolated"],
      [
        "p3657",
        "Designing, digging and guarding a deep repository costs vast sums, they say, and those costs fall on taxpayers for generations",
      ],
    ],
    errorSpans: [
      "They add that there is really no choice: the waste exists, and some form of permanent disposal is unavoidable",
    ],
    extra: "p3655",
    dropped: ["p3658"],
    note: "drops the con argument that there are better alternatives; adds the unused pro argument that underground storage is necessary",
  },
  {
    topic: "perspectrum-493",
    kind: "hallucination",
    pro: ["p3655"],
    con: ["p3658"],
    response:
      "The idea of storing nuclear waste underground has been debated for decades.\n\nProponents see it as a necessity. Spent fuel and other radioactive waste must be kept out of harm's way for thousands of years, and putting it underground is, in their view, the only realistic way to do that.\n\nOpponents, however, believe there are better options than underground storage that deserve more attention. Environmental groups such as Greenpeace also warn that no one can guarantee the surrounding rock will remain stable for the hundred thousand years the waste stays dangerous.\n\nThe question is likely to remain contested as more countries look for sites.",
    spans: [
      [
        "p3655",
        "Proponents see it as a necessity. Spent fuel and other radioactive waste must be kept out of harm's way for thousands of years, and putting it underground is, in their view, the only realistic way to do that",
      ],
      ["p3658", "there are better options than underground storage that deserve more attention"],
    ],
    errorSpans: [
      "Environmental groups such as Greenpeace also warn that no one can guarantee the surrounding rock will remain stable for the hundred thousand years the waste stays dangerous",
    ],
    note: "invented extra con claim: Greenpeace warns the rock's long-term stability cannot be guaranteed",
  },
  {
    topic: "perspectrum-497",
    kind: "clean",
    pro: ["p3682", "p3683"],
    con: ["p3684", "p3685"],
    response:
      "School uniforms are a perennial debate among parents and educators.\n\nThose who would ban them say the outfits often cost families a lot, especially when they must be bought from a single approved supplier. They also believe schools should foster individuality and creativity, which a dress code suppresses.\n\nThose who want to keep uniforms argue that identical clothing puts pupils on an equal footing, so no one stands out for wearing cheaper or less fashionable clothes. Uniforms also help pupils feel part of one school community.\n\nEach school community tends to reach its own balance.",
    spans: [
      [
        "p3682",
        "the outfits often cost families a lot, especially when they must be bought from a single approved supplier",
      ],
      ["p3683", "They also believe schools should foster individuality and creativity, which a dress code suppresses"],
      [
        "p3684",
        "identical clothing puts pupils on an equal footing, so no one stands out for wearing cheaper or less fashionable clothes",
      ],
      ["p3685", "Uniforms also help pupils feel part of one school community"],
    ],
  },
  {
    topic: "perspectrum-497",
    kind: "clean",
    pro: ["p3683"],
    con: ["p3684"],
    response:
      "Should schools abolish uniforms? Opponents of uniforms argue that children should be encouraged to express who they are and to be creative, including in how they dress. Defenders counter that uniforms are a great leveller: when everyone wears the same thing, differences in family income are less visible and pupils are treated more equally. Both positions reflect genuine values, and many schools try to find a middle ground.",
    spans: [
      [
        "p3683",
        "children should be encouraged to express who they are and to be creative, including in how they dress",
      ],
      [
        "p3684",
        "uniforms are a great leveller: when everyone wears the same thing, differences in family income are less visible and pupils are treated more equally",
      ],
    ],
  },
  {
    topic: "perspectrum-497",
    kind: "coverage",
    pro: ["p3682", "p3683"],
    con: ["p3684", "p3685"],
    response:
      "Banning school uniforms would be popular with some families and unpopular with others. On one side, critics say uniforms are frequently pricey, adding another expense to the back-to-school bill, and that they stifle the individuality and creative expression schools ought to nurture. On the other side, supporters argue that uniforms make pupils equal, at least in appearance, removing a visible marker of who can afford designer clothes. In the end, it comes down to which of these priorities a school community values more.",
    spans: [
      ["p3682", "uniforms are frequently pricey, adding another expense to the back-to-school bill"],
      ["p3683", "they stifle the individuality and creative expression schools ought to nurture"],
      [
        "p3684",
        "uniforms make pupils equal, at least in appearance, removing a visible marker of who can afford designer clothes",
      ],
    ],
    dropped: ["p3685"],
    note: "drops the con argument that uniforms contribute to a sense of school unity",
  },
  {
    topic: "perspectrum-497",
    kind: "perspective-confusion",
    pro: ["p3682"],
    con: ["p3684", "p3685"],
    response:
      "Should school uniforms be banned? Opinions are mixed.\n\nThose who favour a ban point first to cost: uniforms are often expensive, and families with several children feel it most. They also say uniforms give pupils a sense of equality, since nobody is judged on their clothes.\n\nThose who oppose a ban stress belonging. Wearing the same uniform, they argue, makes pupils feel part of a single school community with a shared identity.\n\nUltimately, the choice depends on local circumstances and on what parents and pupils themselves want.",
    spans: [
      ["p3682", "uniforms are often expensive, and families with several children feel it most"],
      ["p3684", "They also say uniforms give pupils a sense of equality, since nobody is judged on their clothes"],
      [
        "p3685",
        "Wearing the same uniform, they argue, makes pupils feel part of a single school community with a shared identity",
      ],
    ],
    errorSpans: ["They also say uniforms give pupils a sense of equality, since nobody is judged on their clothes"],
    partial: "p3684",
    note: "the con argument that uniforms create equality is presented as a point made by those favouring a ban",
  },
  {
    topic: "perspectrum-500",
    kind: "clean",
    pro: ["p3702", "p3704"],
    con: ["p3708", "p3709"],
    response:
      "Year-round schooling divides parents and educators.\n\nSupporters highlight the so-called summer slide: over a long break, many pupils forget a good share of what they learned, and shorter, more frequent holidays would limit that loss. They also say it eases the strain on working parents, who otherwise have to find childcare for weeks on end.\n\nCritics argue it asks too much of students, who need a real break to rest and recharge. They also point to the price tag, since keeping schools open and staffed all year would add significant costs to education budgets.\n\nThe right answer may differ between communities.",
    spans: [
      [
        "p3702",
        "over a long break, many pupils forget a good share of what they learned, and shorter, more frequent holidays would limit that loss",
      ],
      ["p3704", "it eases the strain on working parents, who otherwise have to find childcare for weeks on end"],
      ["p3708", "it asks too much of students, who need a real break to rest and recharge"],
      ["p3709", "keeping schools open and staffed all year would add significant costs to education budgets"],
    ],
  },
  {
    topic: "perspectrum-500",
    kind: "hallucination",
    pro: ["p3703"],
    con: ["p3710", "p3708"],
    response:
      "There's no simple answer to whether schools should run all year round.\n\nOn the plus side, advocates argue that keeping young people in school for more of the year would cut down on the trouble that bored, disengaged teenagers can get into during long holidays.\n\nOn the minus side, opponents say year-round calendars disrupt sports, music, summer camps and other extra-curricular activities. They also believe the arrangement is unfair on students, who lose the long stretch of free time they need. On top of that, running buildings, buses and staff through the summer would drive up costs for already stretched school systems.\n\nCommunities will likely weigh these factors differently.",
    spans: [
      [
        "p3703",
        "keeping young people in school for more of the year would cut down on the trouble that bored, disengaged teenagers can get into during long holidays",
      ],
      ["p3710", "year-round calendars disrupt sports, music, summer camps and other extra-curricular activities"],
      ["p3708", "the arrangement is unfair on students, who lose the long stretch of free time they need"],
    ],
    errorSpans: [
      "On top of that, running buildings, buses and staff through the summer would drive up costs for already stretched school systems",
    ],
    extra: "p3709",
    note: "states the unused con argument that year-round schooling imposes extra costs on the education system",
  },
  {
    topic: "perspectrum-500",
    kind: "both",
    pro: ["p3704", "p3703"],
    con: ["p3709"],
    response:
      "Opinions on year-round schooling vary. Backers say it would keep teenagers busy, reducing the antisocial behaviour and boredom that tend to surface during a long summer with nothing to do. Opponents focus on money: schools would need to pay staff, heat or cool buildings and run services for more weeks each year. They also cite research from districts that switched to a year-round calendar and saw no measurable rise in test scores. For now, most systems keep the traditional calendar, and the debate continues.",
    spans: [
      [
        "p3703",
        "it would keep teenagers busy, reducing the antisocial behaviour and boredom that tend to surface during a long summer with nothing to do",
      ],
      ["p3709", "schools would need to pay staff, heat or cool buildings and run services for more weeks each year"],
    ],
    errorSpans: [
      "They also cite research from districts that switched to a year-round calendar and saw no measurable rise in test scores",
    ],
    dropped: ["p3704"],
    note: "drops the pro argument that it reduces the burden on parents; adds an invented con claim about research showing no rise in test scores",
  },
  {
    topic: "perspectrum-500",
    kind: "partial-coverage",
    pro: ["p3702", "p3703", "p3704"],
    con: ["p3710", "p3709"],
    response:
      "Should schools switch to a year-round calendar? Supporters offer several reasons. Children forget less when the summer break is shorter, so teachers spend less time re-teaching old material each autumn. Parents, especially those who work full time, would have fewer long holidays to cover. And a year-round system, they suggest, could ease some wider social problems. Opponents warn that extra-curricular life would suffer, since clubs, sports seasons and summer programmes are built around the long break. They also note the added expense for an education system that is already short of money. How these trade-offs are judged varies from place to place.",
    spans: [
      [
        "p3702",
        "Children forget less when the summer break is shorter, so teachers spend less time re-teaching old material each autumn",
      ],
      ["p3704", "Parents, especially those who work full time, would have fewer long holidays to cover"],
      ["p3703", "a year-round system, they suggest, could ease some wider social problems"],
      [
        "p3710",
        "extra-curricular life would suffer, since clubs, sports seasons and summer programmes are built around the long break",
      ],
      ["p3709", "the added expense for an education system that is already short of money"],
    ],
    partial: "p3703",
    note: "p3703 keeps 'reduce social problems' but drops their source, disaffected and bored youth",
  },
  {
    topic: "perspectrum-502",
    kind: "clean",
    pro: ["p3718", "p3720"],
    con: ["p3722", "p3721", "p3723"],
    response:
      "Whether arts degrees are a luxury is really a question about what higher education is for.\n\nSceptics note that graduates in fine art, drama or music often earn modest salaries after leaving university. They also argue that every place funded in these subjects is a place, and a budget, that universities cannot devote to other courses.\n\nDefenders push back on several fronts. The creative sector earns its keep, they say, generating real revenue through film, heritage tourism and design. The arts also deliver broad benefits to society, on a par with the humanities or theoretical science. And they warn that treating money as the ultimate measure of worth does society far more harm than any arts degree.\n\nIt's a debate about value as much as cost.",
    spans: [
      ["p3718", "graduates in fine art, drama or music often earn modest salaries after leaving university"],
      [
        "p3720",
        "every place funded in these subjects is a place, and a budget, that universities cannot devote to other courses",
      ],
      [
        "p3722",
        "The creative sector earns its keep, they say, generating real revenue through film, heritage tourism and design",
      ],
      ["p3721", "The arts also deliver broad benefits to society, on a par with the humanities or theoretical science"],
      ["p3723", "treating money as the ultimate measure of worth does society far more harm than any arts degree"],
    ],
  },
  {
    topic: "perspectrum-502",
    kind: "coverage",
    pro: ["p3718"],
    con: ["p3721", "p3723"],
    response:
      "Some people argue that creative arts degrees are an indulgence, mainly because those who earn them rarely see much financial reward. Others strongly disagree, pointing to the enormous contribution the arts make to society, a contribution they consider every bit as valuable as that of the humanities or the theoretical sciences. The question is likely to stay on the agenda as universities face tighter budgets and students weigh up what their degrees will lead to.",
    spans: [
      ["p3718", "those who earn them rarely see much financial reward"],
      [
        "p3721",
        "the enormous contribution the arts make to society, a contribution they consider every bit as valuable as that of the humanities or the theoretical sciences",
      ],
    ],
    dropped: ["p3723"],
    note: "drops the con argument that judging value by money is more damaging to society than the arts",
  },
  {
    topic: "perspectrum-502",
    kind: "hallucination",
    pro: ["p3720", "p3718"],
    con: ["p3722"],
    response:
      "Should society keep funding degrees in the creative arts? Critics raise two concerns. Few arts graduates go on to well-paid careers, so the return on the degree is poor. And because universities have limited resources, running arts courses squeezes out room for other subjects. Some add that employers are reporting shortages of engineering and computing graduates, which should take priority. Defenders answer that the arts more than cover their costs, citing the revenue generated by film, the heritage sector and design. The disagreement reflects different views of what universities are for.",
    spans: [
      ["p3718", "Few arts graduates go on to well-paid careers, so the return on the degree is poor"],
      [
        "p3720",
        "because universities have limited resources, running arts courses squeezes out room for other subjects",
      ],
      [
        "p3722",
        "the arts more than cover their costs, citing the revenue generated by film, the heritage sector and design",
      ],
    ],
    errorSpans: [
      "Some add that employers are reporting shortages of engineering and computing graduates, which should take priority",
    ],
    note: "invented extra pro claim about employer shortages of engineering and computing graduates",
  },
  {
    topic: "perspectrum-502",
    kind: "repetition",
    pro: ["p3718"],
    con: ["p3723", "p3721"],
    response:
      "Are creative arts degrees a luxury? It depends on whom you ask.\n\nOne camp focuses on outcomes: arts graduates are seldom well paid, and the salaries many of them end up earning are hard to square with the cost of their studies. Put simply, the financial rewards of an arts degree tend to be meagre.\n\nThe other camp rejects that framing entirely. Judging worth mainly in monetary terms, they argue, is far more corrosive to society than any arts programme. And the arts, they say, bring society benefits as large as those of the humanities or theoretical science.\n\nBoth camps care about value; they measure it differently.",
    spans: [
      [
        "p3718",
        "arts graduates are seldom well paid, and the salaries many of them end up earning are hard to square with the cost of their studies",
      ],
      ["p3718", "Put simply, the financial rewards of an arts degree tend to be meagre"],
      [
        "p3723",
        "Judging worth mainly in monetary terms, they argue, is far more corrosive to society than any arts programme",
      ],
      [
        "p3721",
        "the arts, they say, bring society benefits as large as those of the humanities or theoretical science",
      ],
    ],
    errorSpans: ["Put simply, the financial rewards of an arts degree tend to be meagre"],
    note: "the low-reward argument (p3718) is stated twice in different words",
  },
];
