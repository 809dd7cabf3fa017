import type { HandExampleB } from "./b-types.ts";

/** Batch 1: net neutrality, goal-line technology, teachers on social media, manned space flight, gay marriage. */
export const batch1: HandExampleB[] = [
  {
    topic: "perspectrum-1004",
    kind: "clean",
    pro: ["p5025", "p25440"],
    con: ["p5027", "p5029"],
    response:
      "Net neutrality remains one of the more contested questions in internet policy, and the disagreement is as much about economics as principle.\n\nSupporters see it as a consumer safeguard: without it, broadband providers could pick certain websites or apps to accelerate, throttle others, or charge extra for access to them. They also frame it as a matter of expression, arguing that the right to speak freely should carry over to the online world.\n\nOpponents counter that the rules solve a problem that never existed, pointing out that the internet flourished for years before such regulations were in place. They add that the rules discourage providers from investing in their networks, which in the end means fewer people connected and higher bills for customers.\n\nHow you weigh these points likely depends on whether you trust markets or regulators more to keep the internet open.",
    spans: [
      [
        "p5025",
        "Supporters see it as a consumer safeguard: without it, broadband providers could pick certain websites or apps to accelerate, throttle others, or charge extra for access to them",
      ],
      ["p25440", "arguing that the right to speak freely should carry over to the online world"],
      [
        "p5027",
        "the rules solve a problem that never existed, pointing out that the internet flourished for years before such regulations were in place",
      ],
      [
        "p5029",
        "the rules discourage providers from investing in their networks, which in the end means fewer people connected and higher bills for customers",
      ],
    ],
  },
  {
    topic: "perspectrum-1004",
    kind: "hallucination",
    pro: ["p8117", "p5026"],
    con: ["p8118"],
    response:
      "Should every bit of internet traffic be handled the same way? It's a debate that has gone back and forth in Washington and Brussels for over a decade.\n\nAdvocates argue that equal treatment is what keeps the internet recognisable as the open network it has always been, and that abandoning it would alter its basic architecture. They also point to start-ups: when no company can buy a faster lane, a small newcomer competes on the same terms as an established giant.\n\nCritics see the principle as an excuse for heavy-handed state control, with regulators dictating how private firms run their own networks. Some also warn that guaranteed equal treatment leaves carriers with little reason to upgrade infrastructure, so rural customers may wait longer for service and pay more for it.\n\nBoth camps agree the internet matters; they disagree about who should steer it.",
    spans: [
      [
        "p8117",
        "equal treatment is what keeps the internet recognisable as the open network it has always been, and that abandoning it would alter its basic architecture",
      ],
      [
        "p5026",
        "They also point to start-ups: when no company can buy a faster lane, a small newcomer competes on the same terms as an established giant",
      ],
      [
        "p8118",
        "Critics see the principle as an excuse for heavy-handed state control, with regulators dictating how private firms run their own networks",
      ],
    ],
    errorSpans: [
      "guaranteed equal treatment leaves carriers with little reason to upgrade infrastructure, so rural customers may wait longer for service and pay more for it",
    ],
    extra: "p5029",
    note: "states the unused con argument that net neutrality reduces investment, so less access and higher costs",
  },
  {
    topic: "perspectrum-1004",
    kind: "coverage",
    pro: ["p8112", "p8114"],
    con: ["p8119", "p5028"],
    response:
      "Opinions on net neutrality split along fairly predictable lines. Those in favour stress that it lets information and online services move freely, without a gatekeeper deciding what reaches users. Those against raise two objections. The first is philosophical: a state that forces providers to carry all traffic on identical terms is, in their view, overriding the very freedoms it claims to protect. The second is practical, since they regard the rules as an unwieldy, far-reaching layer of regulation imposed on the internet. Whichever side one leans toward, the question ultimately turns on how much oversight of private networks people are willing to accept.",
    spans: [
      [
        "p8112",
        "it lets information and online services move freely, without a gatekeeper deciding what reaches users",
      ],
      [
        "p8119",
        "a state that forces providers to carry all traffic on identical terms is, in their view, overriding the very freedoms it claims to protect",
      ],
      ["p5028", "they regard the rules as an unwieldy, far-reaching layer of regulation imposed on the internet"],
    ],
    dropped: ["p8114"],
    note: "drops the pro argument that net neutrality keeps a free market and an even playing field",
  },
  {
    topic: "perspectrum-1004",
    kind: "partial-hallucination",
    pro: ["p5025", "p5026", "p8112"],
    con: ["p5027"],
    response:
      "There's no simple answer here, though the arguments are well rehearsed.\n\nIn favour, people note that the principle shields ordinary users: internet providers can't make some services faster, degrade others, or attach premium charges to particular content. It also keeps the field level for young companies that couldn't afford to pay for priority, and it ensures data and online services can flow freely across the network.\n\nAgainst it, sceptics argue the regulations are superfluous. In their telling, the internet's remarkable growth happened precisely because nobody imposed such rules, so adding them now would undo the conditions that made it succeed.\n\nUltimately, it comes down to whether one sees the rules as protection or as interference.",
    spans: [
      [
        "p5025",
        "the principle shields ordinary users: internet providers can't make some services faster, degrade others, or attach premium charges to particular content",
      ],
      ["p5026", "It also keeps the field level for young companies that couldn't afford to pay for priority"],
      ["p8112", "it ensures data and online services can flow freely across the network"],
      [
        "p5027",
        "sceptics argue the regulations are superfluous. In their telling, the internet's remarkable growth happened precisely because nobody imposed such rules, so adding them now would undo the conditions that made it succeed",
      ],
    ],
    errorSpans: [
      "the internet's remarkable growth happened precisely because nobody imposed such rules, so adding them now would undo the conditions that made it succeed",
    ],
    note: "p5027 says the internet grew well without the rules; the response turns that into a causal claim (it grew because of their absence, adding them would undo it)",
  },
  {
    topic: "perspectrum-18",
    kind: "clean",
    pro: ["p130", "p129"],
    con: ["p134", "p131"],
    response:
      "Goal-line technology divides football people more than you might expect.\n\nThose who want it adopted make a simple case: cameras and sensors judge whether a ball crossed the line more dependably than a referee's eyes can. They also observe that tennis, cricket and rugby already rely on similar systems, so football would hardly be a pioneer.\n\nSceptics respond that football is not tennis or cricket. Its continuous, free-flowing play makes it a different kind of game from the sports that have embraced such tools. And they question the expense, saying it is hard to justify a costly system for a situation, a disputed goal-line call, that crops up only occasionally.\n\nWhether the occasional wrong call is a price worth paying is, in the end, a judgement each fan has to make.",
    spans: [
      ["p130", "cameras and sensors judge whether a ball crossed the line more dependably than a referee's eyes can"],
      ["p129", "tennis, cricket and rugby already rely on similar systems, so football would hardly be a pioneer"],
      [
        "p131",
        "football is not tennis or cricket. Its continuous, free-flowing play makes it a different kind of game from the sports that have embraced such tools",
      ],
      [
        "p134",
        "they question the expense, saying it is hard to justify a costly system for a situation, a disputed goal-line call, that crops up only occasionally",
      ],
    ],
  },
  {
    topic: "perspectrum-18",
    kind: "both",
    pro: ["p127", "p128"],
    con: ["p132", "p134"],
    response:
      "Should football finally commit to goal-line technology? Advocates believe the question is really one of timing. Technology has crept into almost every part of modern life, they argue, and it will enter football sooner or later whether purists like it or not. They add that machines simply make fewer mistakes than officials on split-second decisions.\n\nOpponents focus mainly on money. FIFA wants to bring the game to every corner of the world, and they argue that an expensive system sits uneasily with that ambition when many leagues can barely afford floodlights. They also point out that genuinely contested goal-line incidents are rare, making the price hard to defend.\n\nSo the debate pits accuracy against cost.",
    spans: [
      [
        "p127",
        "Technology has crept into almost every part of modern life, they argue, and it will enter football sooner or later whether purists like it or not",
      ],
      [
        "p132",
        "FIFA wants to bring the game to every corner of the world, and they argue that an expensive system sits uneasily with that ambition when many leagues can barely afford floodlights",
      ],
      ["p134", "genuinely contested goal-line incidents are rare, making the price hard to defend"],
    ],
    errorSpans: ["They add that machines simply make fewer mistakes than officials on split-second decisions"],
    extra: "p130",
    dropped: ["p128"],
    note: "drops 'technology is available'; adds the unused pro argument that technology is more reliable than human judgement",
  },
  {
    topic: "perspectrum-18",
    kind: "coverage",
    pro: ["p128", "p129", "p130"],
    con: ["p131", "p132"],
    response:
      "Goal-line technology is one of those issues where the practical and the traditional collide.\n\nOn the practical side, supporters stress that working systems already exist and could be installed tomorrow; nothing needs to be invented. They also note that several other sports already use comparable systems without fuss.\n\nThe traditionalist side has two main reservations. Football flows differently from the stop-start sports where such technology has taken hold, so what works there may not transfer. There is also the matter of expense: FIFA has long said it wants football to be a game anyone anywhere can play, and costly equipment runs against that goal.\n\nHow the sport's governing bodies balance these concerns is still evolving.",
    spans: [
      ["p128", "working systems already exist and could be installed tomorrow; nothing needs to be invented"],
      ["p129", "several other sports already use comparable systems without fuss"],
      [
        "p131",
        "Football flows differently from the stop-start sports where such technology has taken hold, so what works there may not transfer",
      ],
      [
        "p132",
        "There is also the matter of expense: FIFA has long said it wants football to be a game anyone anywhere can play, and costly equipment runs against that goal",
      ],
    ],
    dropped: ["p130"],
    note: "drops the pro argument that technology is more reliable than human judgement",
  },
  {
    topic: "perspectrum-18",
    kind: "repetition",
    pro: ["p127", "p129"],
    con: ["p132"],
    response:
      "Whether goal-line technology has to be part of football is still argued about in pubs and boardrooms alike.\n\nSupporters tend to see its arrival as unavoidable: technology keeps advancing, and the sport cannot hold it back forever. They point to the fact that rugby, tennis and cricket already use such systems routinely. Sooner or later, they say, football will have to accept the march of technology like everyone else.\n\nCritics are less convinced, chiefly on cost grounds. FIFA's stated mission is to spread football to every nation, and an expensive system that poorer federations cannot afford would cut against that mission.\n\nHow one weighs modernisation against accessibility largely determines where one lands.",
    spans: [
      ["p127", "its arrival as unavoidable: technology keeps advancing, and the sport cannot hold it back forever"],
      ["p129", "rugby, tennis and cricket already use such systems routinely"],
      ["p127", "Sooner or later, they say, football will have to accept the march of technology like everyone else"],
      [
        "p132",
        "FIFA's stated mission is to spread football to every nation, and an expensive system that poorer federations cannot afford would cut against that mission",
      ],
    ],
    errorSpans: ["Sooner or later, they say, football will have to accept the march of technology like everyone else"],
    note: "the inevitability argument (p127) is stated twice in different words",
  },
  {
    topic: "perspectrum-191",
    kind: "clean",
    pro: ["p4753", "p22212"],
    con: ["p1421", "p25169"],
    response:
      "Many school districts have wrestled with this question, and the answer is not obvious.\n\nThose who favour a ban worry chiefly about boundaries. Private messaging and friend requests can blur the line between teacher and student, opening the door to relationships that would never develop in a supervised classroom. More generally, they note, people find it easier to slip into unprofessional behaviour when communicating through a screen than face to face.\n\nOpponents regard a blanket prohibition as a legal overreach, arguing it would infringe teachers' rights to speak freely and to associate with whom they choose. They also highlight what would be lost: platforms can give students access to extra learning material, from shared reading lists to recorded explanations.\n\nWhere a school lands usually reflects how much it trusts its staff to manage those boundaries.",
    spans: [
      [
        "p4753",
        "Private messaging and friend requests can blur the line between teacher and student, opening the door to relationships that would never develop in a supervised classroom",
      ],
      [
        "p22212",
        "people find it easier to slip into unprofessional behaviour when communicating through a screen than face to face",
      ],
      ["p1421", "arguing it would infringe teachers' rights to speak freely and to associate with whom they choose"],
      [
        "p25169",
        "platforms can give students access to extra learning material, from shared reading lists to recorded explanations",
      ],
    ],
  },
  {
    topic: "perspectrum-191",
    kind: "clean",
    pro: ["p4746", "p4738", "p4755"],
    con: ["p25169"],
    response:
      "Should teachers and students be kept apart online? Here is how the main arguments run.\n\nThe case for a ban rests largely on the harms of social media itself. Online networks make it easier for students to harass and humiliate one another. Heavy use is also linked to anxiety and to strained friendships and family relationships away from the screen. And posts can come back to haunt students later: admissions officers sometimes look at applicants' profiles, and an ill-judged photo can cost someone a college place.\n\nOn the other side, defenders of teacher-student contact see these platforms as a teaching tool, a way to share additional educational resources beyond what fits into a lesson.\n\nSchools weigh these considerations differently.",
    spans: [
      ["p4746", "Online networks make it easier for students to harass and humiliate one another"],
      [
        "p4738",
        "Heavy use is also linked to anxiety and to strained friendships and family relationships away from the screen",
      ],
      [
        "p4755",
        "posts can come back to haunt students later: admissions officers sometimes look at applicants' profiles, and an ill-judged photo can cost someone a college place",
      ],
      ["p25169", "a way to share additional educational resources beyond what fits into a lesson"],
    ],
  },
  {
    topic: "perspectrum-191",
    kind: "hallucination",
    pro: ["p4752", "p4753"],
    con: ["p1421"],
    response:
      "Views on banning teacher-student contact on social networks vary widely.\n\nProponents of a ban raise two concerns. One is privacy: the platforms make money by tracking what users do and targeting them with ads, and encouraging students to connect with teachers there exposes them further to that data collection. The other is safeguarding, since online channels can let an inappropriate relationship between a teacher and a pupil develop out of sight. Several teachers' unions, they add, already advise members never to accept friend requests from current pupils.\n\nThose against a ban see it as a threat to basic liberties, saying the state would be restricting teachers' freedom of expression and their freedom to associate with others.\n\nUltimately, the question is how to protect students without overreaching.",
    spans: [
      [
        "p4752",
        "the platforms make money by tracking what users do and targeting them with ads, and encouraging students to connect with teachers there exposes them further to that data collection",
      ],
      [
        "p4753",
        "online channels can let an inappropriate relationship between a teacher and a pupil develop out of sight",
      ],
      [
        "p1421",
        "saying the state would be restricting teachers' freedom of expression and their freedom to associate with others",
      ],
    ],
    errorSpans: [
      "Several teachers' unions, they add, already advise members never to accept friend requests from current pupils",
    ],
    note: "invented extra pro claim: teachers' unions already advise against friending pupils",
  },
  {
    topic: "perspectrum-191",
    kind: "perspective-confusion",
    pro: ["p22212", "p4746"],
    con: ["p1421", "p25169"],
    response:
      "This is a question school boards have debated for years.\n\nThose who want a ban focus on cyberbullying, arguing that social networks give students new and persistent ways to torment their classmates.\n\nThose opposed make several points. A ban, they say, would trample on freedom of speech and freedom of association. They also argue that social media puts a wealth of educational material within students' reach. And they point out that it is all too easy to behave inappropriately over electronic messages.\n\nIn the end, it is a trade-off between safeguarding and openness, and different communities strike that balance in different places.",
    spans: [
      ["p4746", "social networks give students new and persistent ways to torment their classmates"],
      ["p1421", "A ban, they say, would trample on freedom of speech and freedom of association"],
      ["p25169", "social media puts a wealth of educational material within students' reach"],
      ["p22212", "it is all too easy to behave inappropriately over electronic messages"],
    ],
    errorSpans: ["it is all too easy to behave inappropriately over electronic messages"],
    partial: "p22212",
    note: "the pro (ban) argument that electronic communication invites inappropriate behaviour is presented as an opponents' point",
  },
  {
    topic: "perspectrum-194",
    kind: "clean",
    pro: ["p1437", "p1440"],
    con: ["p1443", "p1441"],
    response:
      "Sending people into space is a question of values as much as engineering.\n\nEnthusiasts argue that exploring is part of who we are as a species; having crossed oceans and reached the poles, we find in space simply the next place to go. Many also see it as a matter of survival: if humanity is to last over the very long term, it will need the new worlds that crewed missions could open up.\n\nSceptics reply that the money would be better spent down here, on poverty, disease and climate change, rather than on reaching other planets. They also note that crewed spaceflight carries an enormous price tag, while the technological by-products that are often promised have been modest.\n\nReasonable people weigh those claims differently.",
    spans: [
      [
        "p1437",
        "exploring is part of who we are as a species; having crossed oceans and reached the poles, we find in space simply the next place to go",
      ],
      [
        "p1440",
        "if humanity is to last over the very long term, it will need the new worlds that crewed missions could open up",
      ],
      [
        "p1443",
        "the money would be better spent down here, on poverty, disease and climate change, rather than on reaching other planets",
      ],
      [
        "p1441",
        "crewed spaceflight carries an enormous price tag, while the technological by-products that are often promised have been modest",
      ],
    ],
  },
  {
    topic: "perspectrum-194",
    kind: "coverage",
    pro: ["p1439", "p1437"],
    con: ["p1442"],
    response:
      "Opinions on human spaceflight differ sharply, and they are rarely changed by new evidence. For its champions, the sight of astronauts stirs people in a way that rovers and probes never will; watching a person walk on another world lets viewers from every country feel part of a single human story. Doubters are unmoved by the spectacle. They see crewed flight as a technological dead end, a line of development with nowhere further to go. Which of these outlooks prevails will shape space budgets for years, and the answer may differ from one country to the next.",
    spans: [
      [
        "p1439",
        "the sight of astronauts stirs people in a way that rovers and probes never will; watching a person walk on another world lets viewers from every country feel part of a single human story",
      ],
      ["p1442", "They see crewed flight as a technological dead end, a line of development with nowhere further to go"],
    ],
    dropped: ["p1437"],
    note: "drops the pro argument that humanity defines itself through exploration and space is the next frontier",
  },
  {
    topic: "perspectrum-194",
    kind: "hallucination",
    pro: ["p1440"],
    con: ["p1441", "p1442"],
    response:
      "There's no consensus on whether manned space flight is worth pursuing.\n\nIts backers think that, in the long run, the survival of our species may depend on it, because only people travelling into space can open up new worlds for humanity to settle.\n\nIts critics make two points. First, sending humans up is extraordinarily costly, and the spin-off inventions that are supposed to justify the spending have been thinner than advertised. Second, they regard it as a technological dead end that will not lead anywhere new. Some add that, with so many crises unsolved on Earth, our attention belongs here rather than on distant planets.\n\nIt is ultimately a question of priorities and of how far ahead one looks.",
    spans: [
      [
        "p1440",
        "the survival of our species may depend on it, because only people travelling into space can open up new worlds for humanity to settle",
      ],
      [
        "p1441",
        "sending humans up is extraordinarily costly, and the spin-off inventions that are supposed to justify the spending have been thinner than advertised",
      ],
      ["p1442", "they regard it as a technological dead end that will not lead anywhere new"],
    ],
    errorSpans: [
      "Some add that, with so many crises unsolved on Earth, our attention belongs here rather than on distant planets",
    ],
    extra: "p1443",
    note: "states the unused con argument that we should fix this planet's problems instead of exploring others",
  },
  {
    topic: "perspectrum-194",
    kind: "partial-coverage",
    pro: ["p1439", "p1440"],
    con: ["p1441", "p1443"],
    response:
      "Manned spaceflight has passionate defenders and equally committed critics.\n\nDefenders say human missions capture the public imagination in a way no unmanned probe can match. They also argue that crewed flights are the first step toward new worlds, and that opening them up is vital if humanity is to survive over the long term.\n\nCritics answer on two fronts. Crewed flight is ruinously expensive, they argue, and the practical benefits that trickle down from it are limited. And they insist that governments and citizens should devote their energy to this planet's problems instead of looking for other ones to explore.\n\nWhich view one takes often depends on how one balances inspiration against immediate needs.",
    spans: [
      ["p1439", "human missions capture the public imagination in a way no unmanned probe can match"],
      [
        "p1440",
        "crewed flights are the first step toward new worlds, and that opening them up is vital if humanity is to survive over the long term",
      ],
      [
        "p1441",
        "Crewed flight is ruinously expensive, they argue, and the practical benefits that trickle down from it are limited",
      ],
      [
        "p1443",
        "governments and citizens should devote their energy to this planet's problems instead of looking for other ones to explore",
      ],
    ],
    partial: "p1439",
    note: "p1439 keeps 'excites the imagination more than unmanned missions' but drops 'nations everywhere see themselves as one human race'",
  },
  {
    topic: "perspectrum-24",
    kind: "clean",
    pro: ["p4282", "p4283"],
    con: ["p4297", "p4296"],
    response:
      "Whether gay couples should be able to marry is a question that has moved from the margins to the centre of politics in many countries.\n\nSupporters argue that same-sex partners deserve the same legal and financial benefits married heterosexual couples receive, from inheritance rights to tax treatment. They also contend that marriage has never been a fixed institution: its meaning has shifted over the centuries, so the claim that it has always been the union of one man and one woman does not stand up historically.\n\nOpponents see it differently. For them, marriage has always been understood as a bond between a man and a woman, and that tradition should be respected. Many also hold that marriage exists for having children, and since same-sex couples cannot conceive together, it should not be extended to them.\n\nThe debate continues to evolve.",
    spans: [
      [
        "p4282",
        "same-sex partners deserve the same legal and financial benefits married heterosexual couples receive, from inheritance rights to tax treatment",
      ],
      [
        "p4283",
        "marriage has never been a fixed institution: its meaning has shifted over the centuries, so the claim that it has always been the union of one man and one woman does not stand up historically",
      ],
      [
        "p4296",
        "marriage has always been understood as a bond between a man and a woman, and that tradition should be respected",
      ],
      [
        "p4297",
        "marriage exists for having children, and since same-sex couples cannot conceive together, it should not be extended to them",
      ],
    ],
  },
  {
    topic: "perspectrum-24",
    kind: "clean",
    pro: ["p4294", "p4291", "p4286"],
    con: ["p4299", "p21031"],
    response:
      "Few social questions have shifted as quickly as this one.\n\nAdvocates make a rights-based case: marrying is a civil right, they say, and it belongs to gay couples as much as anyone. Because civil marriage is a legal rather than religious institution, religious objections should not determine who can enter it. They also cite health: married people tend to enjoy physical and mental health benefits, and bans on same-sex marriage have been associated with higher rates of psychological disorders.\n\nOpponents raise different concerns. Some prominent religious bodies teach that same-sex unions cheapen what marriage is meant to be. Others fear a slippery slope, in which redefining marriage once would invite claims from polygamous or other nontraditional relationships.\n\nWhere people land often depends on their views about religion, law and family.",
    spans: [
      ["p4286", "marrying is a civil right, they say, and it belongs to gay couples as much as anyone"],
      [
        "p4294",
        "Because civil marriage is a legal rather than religious institution, religious objections should not determine who can enter it",
      ],
      [
        "p4291",
        "married people tend to enjoy physical and mental health benefits, and bans on same-sex marriage have been associated with higher rates of psychological disorders",
      ],
      ["p21031", "Some prominent religious bodies teach that same-sex unions cheapen what marriage is meant to be"],
      [
        "p4299",
        "Others fear a slippery slope, in which redefining marriage once would invite claims from polygamous or other nontraditional relationships",
      ],
    ],
  },
  {
    topic: "perspectrum-24",
    kind: "both",
    pro: ["p24672", "p4288"],
    con: ["p4300", "p4303"],
    response:
      "People disagree strongly about whether gay couples should be allowed to marry.\n\nFor supporters, the principle is straightforward: if two adults want to marry, their sexuality should not stand in the way. They also point to the money, since weddings, tourism and tax revenue from married couples can give public finances and the wider economy a lift. Research, they add, suggests same-sex marriages are at least as stable as heterosexual ones.\n\nOpponents worry about the institution itself. In their view, opening marriage to gay couples risks further weakening an institution they see as already under strain.\n\nBoth sides, in their own way, claim to be defending marriage.",
    spans: [
      ["p24672", "if two adults want to marry, their sexuality should not stand in the way"],
      [
        "p4288",
        "They also point to the money, since weddings, tourism and tax revenue from married couples can give public finances and the wider economy a lift",
      ],
      [
        "p4300",
        "opening marriage to gay couples risks further weakening an institution they see as already under strain",
      ],
    ],
    errorSpans: ["Research, they add, suggests same-sex marriages are at least as stable as heterosexual ones"],
    extra: "p4292",
    dropped: ["p4303"],
    note: "drops the con argument about the end of domestic partnership benefits; adds the unused pro claim that same-sex marriages may be more stable",
  },
  {
    topic: "perspectrum-24",
    kind: "hallucination",
    pro: ["p174", "p176"],
    con: ["p4305", "p4308"],
    response:
      "The debate over same-sex marriage involves law, religion and social change.\n\nThose in favour reject the idea that marriage is only about producing children; since it means far more than that, gay couples should not be shut out because of biology. They also note that once the law allows it, state registrars performing weddings would no longer be able to treat homosexual and heterosexual couples differently. Gallup polling, supporters add, shows that roughly seven in ten Americans now back same-sex marriage.\n\nNot all opposition comes from conservatives. Some critics on the left regard marriage as an outdated and oppressive institution that ought to be weakened rather than extended to more people. Others argue that legalisation pushes a 'homosexual agenda' and unfairly brands anyone who disagrees as a bigot.\n\nEach of these positions rests on different assumptions about what marriage is for.",
    spans: [
      [
        "p174",
        "marriage is only about producing children; since it means far more than that, gay couples should not be shut out because of biology",
      ],
      [
        "p176",
        "state registrars performing weddings would no longer be able to treat homosexual and heterosexual couples differently",
      ],
      [
        "p4305",
        "regard marriage as an outdated and oppressive institution that ought to be weakened rather than extended to more people",
      ],
      ["p4308", "legalisation pushes a 'homosexual agenda' and unfairly brands anyone who disagrees as a bigot"],
    ],
    errorSpans: [
      "Gallup polling, supporters add, shows that roughly seven in ten Americans now back same-sex marriage",
    ],
    note: "invented extra pro claim citing a Gallup poll on public support",
  },
];
