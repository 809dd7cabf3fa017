import type { HandExampleB } from "./b-types.ts";

/** Batch 6: rail travel, EU gender quotas, abolishing private schools, legal prostitution, child curfews. */
export const batch6: HandExampleB[] = [
  {
    topic: "perspectrum-730",
    kind: "clean",
    pro: ["p6033", "p6034"],
    con: ["p6037", "p6040"],
    response:
      "Whether rail is the transport of the future depends a lot on the journey you have in mind.\n\nIts supporters say trains are usually the cheaper option, especially compared with driving or flying. They also note that rail is frequently quicker, particularly between city centres where it avoids traffic and airport queues.\n\nCritics point out that trains can be thoroughly uncomfortable, crowded at peak times with too few seats. They also note that rail has limits on range: it cannot cross oceans, and there are only so many places the tracks can reach.\n\nWhich matters most depends on how and where people travel.",
    spans: [
      ["p6033", "trains are usually the cheaper option, especially compared with driving or flying"],
      [
        "p6034",
        "rail is frequently quicker, particularly between city centres where it avoids traffic and airport queues",
      ],
      ["p6037", "trains can be thoroughly uncomfortable, crowded at peak times with too few seats"],
      [
        "p6040",
        "rail has limits on range: it cannot cross oceans, and there are only so many places the tracks can reach",
      ],
    ],
  },
  {
    topic: "perspectrum-730",
    kind: "clean",
    pro: ["p6035"],
    con: ["p6039", "p6038"],
    response:
      "Opinions on the future of rail travel vary. Fans of the railways like their reliability in practice: services run frequently, and passengers are kept informed about any delays. Sceptics are less enthusiastic. Some believe the bicycle, not the train, is the best way to get around in future. Others worry about safety, from the ever-present risk of terrorist attacks to the possibility of a crash. Each of these views reflects different priorities.",
    spans: [
      ["p6035", "services run frequently, and passengers are kept informed about any delays"],
      ["p6039", "Some believe the bicycle, not the train, is the best way to get around in future"],
      [
        "p6038",
        "Others worry about safety, from the ever-present risk of terrorist attacks to the possibility of a crash",
      ],
    ],
  },
  {
    topic: "perspectrum-730",
    kind: "coverage",
    pro: ["p6033", "p6035", "p6034"],
    con: ["p6038"],
    response:
      "Rail has a strong claim to be the transport of the future, though not everyone agrees.\n\nSupporters point out that trains run at frequent intervals and that operators warn passengers about delays, so journeys are easy to plan. On many routes, they add, the train simply gets you there faster than a car or a plane.\n\nOpponents raise safety concerns: rail networks remain potential targets for terrorism, and accidents, though rare, can be catastrophic.\n\nWhich way you lean may depend on your own experience of the trains.",
    spans: [
      [
        "p6035",
        "trains run at frequent intervals and that operators warn passengers about delays, so journeys are easy to plan",
      ],
      ["p6034", "On many routes, they add, the train simply gets you there faster than a car or a plane"],
      [
        "p6038",
        "rail networks remain potential targets for terrorism, and accidents, though rare, can be catastrophic",
      ],
    ],
    dropped: ["p6033"],
    note: "drops the pro argument that rail travel is cheaper",
  },
  {
    topic: "perspectrum-730",
    kind: "partial-hallucination",
    pro: ["p6034", "p6033"],
    con: ["p6037", "p6039"],
    response:
      "There's no simple answer to this one.\n\nAdvocates of rail point to speed, arguing that a train will always get you to your destination faster than any other mode of transport. They also say rail is the cheaper way to travel.\n\nCritics focus on the passenger experience, noting that trains can be cramped and uncomfortable, especially on long or busy routes. And some argue that the real future belongs to the bicycle, which they see as the best mode of transport of all.\n\nUltimately, the answer depends on what you value most in a journey.",
    spans: [
      ["p6034", "arguing that a train will always get you to your destination faster than any other mode of transport"],
      ["p6033", "They also say rail is the cheaper way to travel"],
      ["p6037", "trains can be cramped and uncomfortable, especially on long or busy routes"],
      ["p6039", "the real future belongs to the bicycle, which they see as the best mode of transport of all"],
    ],
    errorSpans: ["a train will always get you to your destination faster than any other mode of transport"],
    note: "p6034 says rail is often faster; the response says it is always faster than any other mode",
  },
  {
    topic: "perspectrum-83",
    kind: "clean",
    pro: ["p615", "p616"],
    con: ["p618", "p619"],
    response:
      "Would gender quotas help Europe's economies? Economists and politicians disagree.\n\nSupporters argue that bringing more women into the workforce raises GDP, and that quotas help do that. They add that quotas send a signal that encourages women to invest in education and to aim for professional and senior roles.\n\nCritics reply that the evidence linking quotas to economic growth is far from clear. They also maintain that organisations, public and private alike, get the best economic results by hiring on ability alone, regardless of gender.\n\nThe debate turns as much on evidence as on principle.",
    spans: [
      ["p615", "bringing more women into the workforce raises GDP, and that quotas help do that"],
      [
        "p616",
        "quotas send a signal that encourages women to invest in education and to aim for professional and senior roles",
      ],
      ["p618", "the evidence linking quotas to economic growth is far from clear"],
      [
        "p619",
        "organisations, public and private alike, get the best economic results by hiring on ability alone, regardless of gender",
      ],
    ],
  },
  {
    topic: "perspectrum-83",
    kind: "clean",
    pro: ["p617", "p632"],
    con: ["p620", "p634"],
    response:
      "Gender quotas for the boards of European companies have been debated for more than a decade.\n\nThose in favour believe that boardrooms with a quota-driven balance of men and women create a business culture that is more attentive to gender and performs better. They also argue that a firm stance on women's rights can only enhance the EU's standing in the world.\n\nThose against suggest that other policies could achieve the same goals with less distortion and more economic benefit. Many also feel that the situation in member states is already getting better on its own, so a new policy isn't needed.\n\nUltimately, it's a question of whether legislation or gradual change is the better route.",
    spans: [
      [
        "p617",
        "boardrooms with a quota-driven balance of men and women create a business culture that is more attentive to gender and performs better",
      ],
      ["p632", "a firm stance on women's rights can only enhance the EU's standing in the world"],
      ["p620", "other policies could achieve the same goals with less distortion and more economic benefit"],
      ["p634", "the situation in member states is already getting better on its own, so a new policy isn't needed"],
    ],
  },
  {
    topic: "perspectrum-83",
    kind: "hallucination",
    pro: ["p615"],
    con: ["p620", "p634"],
    response:
      "Are gender quotas good for the economies of EU member states? Views are divided.\n\nProponents focus on the labour market: when more women work, national output rises, and quotas are one way to get there. They also see quotas as part of a wider duty, arguing that the EU ought to be more active in fighting human rights abuses wherever they occur.\n\nOpponents argue that there are alternative policies that would distort markets less and do more for the economy. They also believe that conditions in member states are already improving without intervention, making a new policy unnecessary.\n\nHow one weighs these arguments often reflects broader views about regulation.",
    spans: [
      ["p615", "when more women work, national output rises, and quotas are one way to get there"],
      ["p620", "there are alternative policies that would distort markets less and do more for the economy"],
      [
        "p634",
        "conditions in member states are already improving without intervention, making a new policy unnecessary",
      ],
    ],
    errorSpans: [
      "They also see quotas as part of a wider duty, arguing that the EU ought to be more active in fighting human rights abuses wherever they occur",
    ],
    extra: "p21466",
    note: "states the unused pro argument that the EU should be more active against human rights abuses",
  },
  {
    topic: "perspectrum-83",
    kind: "both",
    pro: ["p616", "p617"],
    con: ["p619"],
    response:
      "Opinions on EU gender quotas differ sharply. Supporters say quotas encourage women to stay in education and to pursue professional careers, knowing that senior positions are genuinely open to them. Critics respond that the route to economic success is to hire the most skilled people, whatever their gender. They also note that there is no clear evidence that quotas actually boost economic growth. Both sides cite economic arguments, which is why the debate so often centres on the data.",
    spans: [
      [
        "p616",
        "quotas encourage women to stay in education and to pursue professional careers, knowing that senior positions are genuinely open to them",
      ],
      ["p619", "the route to economic success is to hire the most skilled people, whatever their gender"],
    ],
    errorSpans: ["They also note that there is no clear evidence that quotas actually boost economic growth"],
    extra: "p618",
    dropped: ["p617"],
    note: "drops the pro argument about gender-sensitive, high-performing boards; adds the unused con argument that there is no clear link between quotas and growth",
  },
  {
    topic: "perspectrum-831",
    kind: "clean",
    pro: ["p3793", "p6683"],
    con: ["p6690", "p6687"],
    response:
      "Abolishing private schools is one of the more radical proposals in education policy, and it provokes strong reactions.\n\nSupporters argue that private schools breed elitism, giving a small, privileged group a head start and a sense of separateness. They also believe that as long as wealthy and influential families can opt out, there is little pressure to reform the state system their children never use.\n\nOpponents raise practical objections. The state, they say, cannot afford to absorb hundreds of thousands of extra pupils into already stretched public schools. They also value the competition private schools provide, which they believe pushes all schools to raise their game.\n\nThe debate reflects deeper disagreements about fairness and freedom.",
    spans: [
      [
        "p3793",
        "private schools breed elitism, giving a small, privileged group a head start and a sense of separateness",
      ],
      [
        "p6683",
        "as long as wealthy and influential families can opt out, there is little pressure to reform the state system their children never use",
      ],
      [
        "p6690",
        "The state, they say, cannot afford to absorb hundreds of thousands of extra pupils into already stretched public schools",
      ],
      ["p6687", "the competition private schools provide, which they believe pushes all schools to raise their game"],
    ],
  },
  {
    topic: "perspectrum-831",
    kind: "clean",
    pro: ["p6678", "p3794"],
    con: ["p6691", "p6688", "p3791"],
    response:
      "Should private education be abolished? It's a question that tends to divide people along lines of principle.\n\nThose in favour say a separate private sector fuels stereotypes and social tensions, dividing children by background from an early age. They also point out that private schools tend to be far less diverse than the communities around them.\n\nThose against make three points. Getting rid of a service that works well simply because not everyone can afford it strikes them as absurd. In a civilised society, they argue, people should have plenty of choice. And they note that private schools actually help state schools financially, since every pupil educated privately is one the state does not have to pay for.\n\nWhere you stand likely depends on how you weigh equality against choice.",
    spans: [
      [
        "p6678",
        "a separate private sector fuels stereotypes and social tensions, dividing children by background from an early age",
      ],
      ["p3794", "private schools tend to be far less diverse than the communities around them"],
      [
        "p6691",
        "Getting rid of a service that works well simply because not everyone can afford it strikes them as absurd",
      ],
      ["p6688", "In a civilised society, they argue, people should have plenty of choice"],
      [
        "p3791",
        "private schools actually help state schools financially, since every pupil educated privately is one the state does not have to pay for",
      ],
    ],
  },
  {
    topic: "perspectrum-831",
    kind: "coverage",
    pro: ["p6680", "p6684"],
    con: ["p6694", "p6687"],
    response:
      "The debate over abolishing private schools often comes down to competing visions of what makes schools better.\n\nAbolitionists argue that removing the option of going private would raise standards across the board, because everyone would have a stake in making state schools excellent. They also question the assumption that private schooling is good for children; in their view, it does not necessarily serve a child's best interests.\n\nDefenders argue that private schools create healthy competition that keeps the whole system on its toes.\n\nNeither side has a monopoly on good intentions.",
    spans: [
      [
        "p6680",
        "removing the option of going private would raise standards across the board, because everyone would have a stake in making state schools excellent",
      ],
      [
        "p6684",
        "They also question the assumption that private schooling is good for children; in their view, it does not necessarily serve a child's best interests",
      ],
      ["p6687", "private schools create healthy competition that keeps the whole system on its toes"],
    ],
    dropped: ["p6694"],
    note: "drops the con argument that one-on-one teacher time in private schools gives better long-run results",
  },
  {
    topic: "perspectrum-831",
    kind: "repetition",
    pro: ["p6683", "p3794"],
    con: ["p6694"],
    response:
      "Whether to abolish private education is a perennial political question.\n\nCritics of private schools argue that their existence holds back improvement of the state system, since the most influential parents have no personal reason to push for change. They also say private schools lack diversity, drawing pupils from a narrow slice of society. And as long as an escape route exists, they argue, the public system will never be properly reformed.\n\nDefenders highlight the benefits of small classes, arguing that more one-to-one time between teacher and student leads to better results over the long run.\n\nHow one weighs these claims tends to reflect wider political views.",
    spans: [
      [
        "p6683",
        "their existence holds back improvement of the state system, since the most influential parents have no personal reason to push for change",
      ],
      ["p3794", "private schools lack diversity, drawing pupils from a narrow slice of society"],
      ["p6683", "as long as an escape route exists, they argue, the public system will never be properly reformed"],
      ["p6694", "more one-to-one time between teacher and student leads to better results over the long run"],
    ],
    errorSpans: ["as long as an escape route exists, they argue, the public system will never be properly reformed"],
    note: "the inhibits-reform argument (p6683) is stated twice in different words",
  },
  {
    topic: "perspectrum-842",
    kind: "clean",
    pro: ["p6785", "p693", "p691"],
    con: ["p6828", "p6830"],
    response:
      "Whether prostitution should be legal is a question on which thoughtful people, including feminists, disagree sharply.\n\nAdvocates of legalisation argue that sex workers would be safer, able to work openly, report abuse and seek protection from the police. They also say that police and courts would be freed to concentrate their resources on stamping out sex trafficking. And they frame it as a matter of sexual autonomy: adults should be able to decide for themselves whether to buy or sell sex.\n\nOpponents believe legalisation would still leave the most vulnerable women open to exploitation. They also doubt it would end the violence that so often accompanies the trade.\n\nThe evidence from countries that have tried different models is mixed and hotly contested.",
    spans: [
      ["p6785", "sex workers would be safer, able to work openly, report abuse and seek protection from the police"],
      ["p693", "police and courts would be freed to concentrate their resources on stamping out sex trafficking"],
      [
        "p691",
        "a matter of sexual autonomy: adults should be able to decide for themselves whether to buy or sell sex",
      ],
      ["p6828", "legalisation would still leave the most vulnerable women open to exploitation"],
      ["p6830", "They also doubt it would end the violence that so often accompanies the trade"],
    ],
  },
  {
    topic: "perspectrum-842",
    kind: "hallucination",
    pro: ["p6824", "p6819"],
    con: ["p6827", "p697"],
    response:
      "Legalising prostitution is a deeply divisive issue.\n\nSupporters point out that many women turn to prostitution because they have nothing else and need to survive. They also regard the current law as misguided and condescending toward women, treating them as unable to make their own choices.\n\nOpponents take a different view. The law, they say, should never appear to endorse illicit behaviour. They also fear that a legal market in sex would spread into other relationships, turning women and girls into commodities. Some warn as well that legalisation would worsen the spread of HIV.\n\nUltimately, the question is about both morality and harm reduction.",
    spans: [
      ["p6824", "many women turn to prostitution because they have nothing else and need to survive"],
      [
        "p6819",
        "the current law as misguided and condescending toward women, treating them as unable to make their own choices",
      ],
      ["p6827", "The law, they say, should never appear to endorse illicit behaviour"],
      ["p697", "a legal market in sex would spread into other relationships, turning women and girls into commodities"],
    ],
    errorSpans: ["Some warn as well that legalisation would worsen the spread of HIV"],
    extra: "p6788",
    note: "states the unused con argument that legalisation would exacerbate the HIV problem",
  },
  {
    topic: "perspectrum-842",
    kind: "both",
    pro: ["p6826", "p6825"],
    con: ["p6790", "p695"],
    response:
      "Should prostitution be legal? There's no easy consensus.\n\nThose in favour suggest that a legal outlet for sex can prevent some sexual crimes from happening. They also point to New Zealand, where a government review found that most sex workers felt better able to refuse clients after the trade was decriminalised.\n\nThose against argue that legalisation would set back women's rights. They also believe that a market in sex erodes the values of commitment and loyalty that relationships depend on.\n\nBoth sides claim to be protecting women, which is part of why the debate is so difficult.",
    spans: [
      ["p6826", "a legal outlet for sex can prevent some sexual crimes from happening"],
      ["p6790", "legalisation would set back women's rights"],
      ["p695", "a market in sex erodes the values of commitment and loyalty that relationships depend on"],
    ],
    errorSpans: [
      "They also point to New Zealand, where a government review found that most sex workers felt better able to refuse clients after the trade was decriminalised",
    ],
    dropped: ["p6825"],
    note: "drops the pro argument that legalisation keeps prostitution from going underground; adds an invented claim about a New Zealand government review",
  },
  {
    topic: "perspectrum-842",
    kind: "partial-coverage",
    pro: ["p6785", "p692"],
    con: ["p697", "p6829"],
    response:
      "This is one of the most contested questions in social policy.\n\nThose who favour legalisation argue that it would make sex workers safer, since they could work in regulated premises and go to the police without fear of arrest. More broadly, they believe a legal framework would benefit society as a whole.\n\nThose who oppose it worry that a legal sex market would treat women and girls as commodities to be bought and sold. They also fear a domino effect: if prostitution were legalised, similar arguments would soon be made for drugs.\n\nUltimately, the answer depends on one's view of personal freedom and the role of the state.",
    spans: [
      [
        "p6785",
        "it would make sex workers safer, since they could work in regulated premises and go to the police without fear of arrest",
      ],
      ["p692", "they believe a legal framework would benefit society as a whole"],
      ["p697", "a legal sex market would treat women and girls as commodities to be bought and sold"],
      [
        "p6829",
        "They also fear a domino effect: if prostitution were legalised, similar arguments would soon be made for drugs",
      ],
    ],
    partial: "p697",
    note: "p697 keeps 'turning women and girls into commodities' but drops 'corrupt non-market sexual relations'",
  },
  {
    topic: "perspectrum-9",
    kind: "clean",
    pro: ["p67", "p68"],
    con: ["p73", "p75"],
    response:
      "Child curfews, which bar young people from public places after a certain hour, divide communities.\n\nSupporters say their main purpose is to prevent crime, keeping children off the streets at times when offending is most likely. They also see curfews as a way of protecting vulnerable children from exploitation and harm at night.\n\nCritics argue that curfews infringe children's rights, restricting their freedom of movement simply because of their age. They believe that engaging positively with young people, through youth clubs, mentoring and outreach, would achieve far more than a blanket ban.\n\nWhere one lands often depends on local circumstances.",
    spans: [
      [
        "p67",
        "their main purpose is to prevent crime, keeping children off the streets at times when offending is most likely",
      ],
      ["p68", "protecting vulnerable children from exploitation and harm at night"],
      ["p73", "curfews infringe children's rights, restricting their freedom of movement simply because of their age"],
      [
        "p75",
        "engaging positively with young people, through youth clubs, mentoring and outreach, would achieve far more than a blanket ban",
      ],
    ],
  },
  {
    topic: "perspectrum-9",
    kind: "hallucination",
    pro: ["p71", "p69"],
    con: ["p72"],
    response:
      "Should there be curfews for children? Opinions differ.\n\nThose in favour believe children are simply better off at home in the evening, with their families rather than out on the streets. They also argue that curfews are practical, being simple rules that are easy to understand and apply.\n\nThose against say curfews just don't work; young people who want to get into trouble will find ways around them. Worse, critics say, curfews can backfire, alienating young people and eroding their trust in the police.\n\nUltimately, the answer depends on how one weighs these concerns.",
    spans: [
      [
        "p71",
        "children are simply better off at home in the evening, with their families rather than out on the streets",
      ],
      ["p69", "curfews are practical, being simple rules that are easy to understand and apply"],
      ["p72", "curfews just don't work; young people who want to get into trouble will find ways around them"],
    ],
    errorSpans: [
      "Worse, critics say, curfews can backfire, alienating young people and eroding their trust in the police",
    ],
    extra: "p74",
    note: "states the unused con argument that curfews are counter-productive",
  },
  {
    topic: "perspectrum-9",
    kind: "coverage",
    pro: ["p68", "p67", "p69"],
    con: ["p72", "p74"],
    response:
      "Child curfews are controversial. On the one hand, supporters say they help safeguard vulnerable children, who are most at risk late at night, and they see crime prevention as the central aim. On the other hand, opponents argue that curfews are ineffective at reducing crime and may even be counter-productive, pushing young people away from the adults and institutions that could help them. As with many policy questions, the evidence can be read in more than one way.",
    spans: [
      ["p68", "they help safeguard vulnerable children, who are most at risk late at night"],
      ["p67", "they see crime prevention as the central aim"],
      ["p72", "curfews are ineffective at reducing crime"],
      [
        "p74",
        "may even be counter-productive, pushing young people away from the adults and institutions that could help them",
      ],
    ],
    dropped: ["p69"],
    note: "drops the pro argument that a curfew is practical",
  },
  {
    topic: "perspectrum-9",
    kind: "perspective-confusion",
    pro: ["p67", "p71"],
    con: ["p73", "p75"],
    response:
      "Child curfews have been tried in various towns and cities, and opinions about them remain mixed.\n\nSupporters see crime prevention as the main point: keeping children indoors at night, they argue, reduces the opportunities for offending.\n\nOpponents argue that curfews compromise children's rights. They also say that children are best off at home in the evening, and that positive engagement with young people would do more good than any curfew.\n\nThe debate ultimately turns on how to balance safety with freedom.",
    spans: [
      ["p67", "keeping children indoors at night, they argue, reduces the opportunities for offending"],
      ["p73", "curfews compromise children's rights"],
      ["p71", "children are best off at home in the evening"],
      ["p75", "positive engagement with young people would do more good than any curfew"],
    ],
    errorSpans: ["children are best off at home in the evening"],
    partial: "p71",
    note: "the pro argument that children are best at home in the evening is presented as an opponents' point",
  },
];
