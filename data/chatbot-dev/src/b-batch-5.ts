import type { HandExampleB } from "./b-types.ts";

/** Batch 5: education to degree level, capping university, science and values, bottled water, animal privacy. */
export const batch5: HandExampleB[] = [
  {
    topic: "perspectrum-560",
    kind: "clean",
    pro: ["p4123", "p4120"],
    con: ["p4126", "p4127", "p3800"],
    response:
      "Making education compulsory all the way to degree level would be a dramatic change, and the arguments on each side are substantial.\n\nSupporters say tomorrow's economy will demand far more education than today's, as routine jobs are automated and knowledge-based work grows. They also see it as a moral duty: society, in their view, owes every young person a full education.\n\nOpponents think the plan is unaffordable, with the cost of putting an entire generation through university running far beyond what governments could realistically fund. They note that academic study simply doesn't suit everyone. And many valuable skills, from plumbing to nursing care, are learnt better on the job than in a lecture hall.\n\nThe question is ultimately about what kind of education system a society wants.",
    spans: [
      [
        "p4123",
        "tomorrow's economy will demand far more education than today's, as routine jobs are automated and knowledge-based work grows",
      ],
      ["p4120", "They also see it as a moral duty: society, in their view, owes every young person a full education"],
      [
        "p4126",
        "the plan is unaffordable, with the cost of putting an entire generation through university running far beyond what governments could realistically fund",
      ],
      ["p4127", "academic study simply doesn't suit everyone"],
      [
        "p3800",
        "many valuable skills, from plumbing to nursing care, are learnt better on the job than in a lecture hall",
      ],
    ],
  },
  {
    topic: "perspectrum-560",
    kind: "clean",
    pro: ["p3796", "p3798"],
    con: ["p4125", "p4129"],
    response:
      "Should everyone be required to study until they have a degree? Proponents believe that more years of education open more doors, widening the range of careers and life paths available. They add that raising the leaving age this far would promote equal opportunities, since children from poorer families could no longer drop out early. Opponents place weight on individual choice, arguing that young people should be free to decide their own path. They also point out that keeping everyone in study into their twenties would take a large share of young people out of the workforce. Each side appeals to a different idea of fairness.",
    spans: [
      ["p3796", "more years of education open more doors, widening the range of careers and life paths available"],
      [
        "p3798",
        "raising the leaving age this far would promote equal opportunities, since children from poorer families could no longer drop out early",
      ],
      [
        "p4125",
        "Opponents place weight on individual choice, arguing that young people should be free to decide their own path",
      ],
      [
        "p4129",
        "keeping everyone in study into their twenties would take a large share of young people out of the workforce",
      ],
    ],
  },
  {
    topic: "perspectrum-560",
    kind: "coverage",
    pro: ["p4124", "p3797"],
    con: ["p3799", "p3801"],
    response:
      "There's no simple answer here.\n\nThose in favour argue that an ageing population and a rising retirement age change the picture: people will work for longer, and they will need higher-level skills to stay employable across longer careers.\n\nThose against doubt that compulsion works, saying that students forced to stay in education rarely gain much from it. They also stress that for some young people, leaving education early is a necessity, whether to support their family or for other pressing reasons.\n\nUltimately, the answer depends on how one weighs these concerns.",
    spans: [
      [
        "p4124",
        "an ageing population and a rising retirement age change the picture: people will work for longer, and they will need higher-level skills to stay employable across longer careers",
      ],
      ["p3799", "students forced to stay in education rarely gain much from it"],
      [
        "p3801",
        "for some young people, leaving education early is a necessity, whether to support their family or for other pressing reasons",
      ],
    ],
    dropped: ["p3797"],
    note: "drops the pro argument that raising the leaving age is a crucial investment in society's future",
  },
  {
    topic: "perspectrum-560",
    kind: "hallucination",
    pro: ["p4122"],
    con: ["p4126", "p3800"],
    response:
      "Compulsory education to degree level is an ambitious idea. Its advocates argue that individuals would see the benefits directly, as higher skills translate into better pay and a higher standard of living. Critics call the proposal wildly expensive, saying no government could realistically pay for it. They also argue that many skills are better learnt outside a classroom, through apprenticeships and work experience. And they point out that some young people simply aren't suited to academic study. The disagreement reflects different visions of what education is for.",
    spans: [
      [
        "p4122",
        "individuals would see the benefits directly, as higher skills translate into better pay and a higher standard of living",
      ],
      ["p4126", "Critics call the proposal wildly expensive, saying no government could realistically pay for it"],
      ["p3800", "many skills are better learnt outside a classroom, through apprenticeships and work experience"],
    ],
    errorSpans: ["And they point out that some young people simply aren't suited to academic study"],
    extra: "p4127",
    note: "states the unused con argument that not everyone is good at studying",
  },
  {
    topic: "perspectrum-630",
    kind: "clean",
    pro: ["p5220", "p5218"],
    con: ["p5224", "p5226"],
    response:
      "Should university places be capped and admission made more selective? The question pits concerns about value against concerns about access.\n\nSupporters of capping point out that many graduates end up in jobs that have nothing to do with their degree, yet still carry large debts. They also argue that as degrees have become commonplace, a degree is worth much less than it used to be.\n\nOpponents warn that more selective admissions would tilt the system toward wealthy and middle-class applicants, who can afford the tutoring and support that selection rewards. They also believe that broad access to university creates a literate, versatile and well-informed population, which benefits the whole country.\n\nWhich concern matters more is a question of values.",
    spans: [
      ["p5220", "many graduates end up in jobs that have nothing to do with their degree, yet still carry large debts"],
      ["p5218", "as degrees have become commonplace, a degree is worth much less than it used to be"],
      [
        "p5224",
        "more selective admissions would tilt the system toward wealthy and middle-class applicants, who can afford the tutoring and support that selection rewards",
      ],
      [
        "p5226",
        "broad access to university creates a literate, versatile and well-informed population, which benefits the whole country",
      ],
    ],
  },
  {
    topic: "perspectrum-630",
    kind: "coverage",
    pro: ["p5219", "p5220"],
    con: ["p5228"],
    response:
      "Opinions on limiting university places differ sharply. Those who want caps argue that too many students graduate with heavy debts for degrees they never end up using in their working lives. Those who oppose caps say the opposite is needed: with the population growing, the country will need more universities, not fewer places. How the balance is struck will shape higher education, and the job market, for a generation.",
    spans: [
      [
        "p5220",
        "too many students graduate with heavy debts for degrees they never end up using in their working lives",
      ],
      ["p5228", "with the population growing, the country will need more universities, not fewer places"],
    ],
    dropped: ["p5219"],
    note: "drops the pro argument that with so many new universities employers cannot tell good from bad",
  },
  {
    topic: "perspectrum-630",
    kind: "both",
    pro: ["p5218"],
    con: ["p5224", "p5226"],
    response:
      "Whether university education should be capped and made more selective is a contested question.\n\nProponents believe a degree simply doesn't carry the weight it once did. With so many new institutions awarding them, they add, employers struggle to distinguish a strong university from a weak one.\n\nCritics argue that selection would favour the children of the rich and the middle classes, and that caps would shut out talented students from poorer backgrounds.\n\nPolicymakers have to weigh these concerns against each other.",
    spans: [
      ["p5218", "a degree simply doesn't carry the weight it once did"],
      [
        "p5224",
        "selection would favour the children of the rich and the middle classes, and that caps would shut out talented students from poorer backgrounds",
      ],
    ],
    errorSpans: [
      "With so many new institutions awarding them, they add, employers struggle to distinguish a strong university from a weak one",
    ],
    extra: "p5219",
    dropped: ["p5226"],
    note: "drops the con argument that wide university education makes a literate, multi-skilled nation; adds the unused pro argument about employers unable to tell universities apart",
  },
  {
    topic: "perspectrum-630",
    kind: "partial-coverage",
    pro: ["p5219", "p5220", "p5218"],
    con: ["p5226"],
    response:
      "The idea of capping university places is gaining attention. Advocates raise three points. First, the number of new universities and colleges has grown so fast that employers can no longer tell the good ones from the bad. Second, many graduates never make use of their degree in their careers. Third, a degree has lost much of the value it once had. Opponents reply that broad participation in higher education produces a literate, skilled and knowledgeable nation, and that this benefit outweighs the drawbacks. The debate reflects different ideas about what universities are for.",
    spans: [
      [
        "p5219",
        "the number of new universities and colleges has grown so fast that employers can no longer tell the good ones from the bad",
      ],
      ["p5220", "many graduates never make use of their degree in their careers"],
      ["p5218", "a degree has lost much of the value it once had"],
      [
        "p5226",
        "broad participation in higher education produces a literate, skilled and knowledgeable nation, and that this benefit outweighs the drawbacks",
      ],
    ],
    partial: "p5220",
    note: "p5220 keeps 'many don't use their degree' but drops 'yet still end up in huge debt'",
  },
  {
    topic: "perspectrum-666",
    kind: "clean",
    pro: ["p5531", "p5530"],
    con: ["p5533", "p5534"],
    response:
      "Can science tell us what we ought to value? Philosophers and scientists have argued about this for a long time.\n\nThose who think it can point to what research is able to do: it can measure and analyse how particular moral behaviours affect other people, and it can design practical solutions and new policies aimed at improving overall wellbeing and happiness.\n\nThose who disagree note that science cannot generate faith, which for many people is the source of their values. They also think science should not be in the business of telling people how to live.\n\nUltimately, the answer depends on what one thinks values are.",
    spans: [
      ["p5530", "it can measure and analyse how particular moral behaviours affect other people"],
      [
        "p5531",
        "it can design practical solutions and new policies aimed at improving overall wellbeing and happiness",
      ],
      ["p5533", "science cannot generate faith, which for many people is the source of their values"],
      ["p5534", "They also think science should not be in the business of telling people how to live"],
    ],
  },
  {
    topic: "perspectrum-666",
    kind: "clean",
    pro: ["p5530"],
    con: ["p5535"],
    response:
      "Whether science can determine human values is an old philosophical debate. On one side, people argue that science can study the consequences of moral choices, measuring how certain behaviour helps or harms others. On the other, critics say science has no spiritual dimension, and since values often rest on the spiritual, it cannot settle them. Where one stands may depend on how one understands morality itself.",
    spans: [
      [
        "p5530",
        "science can study the consequences of moral choices, measuring how certain behaviour helps or harms others",
      ],
      [
        "p5535",
        "science has no spiritual dimension, and since values often rest on the spiritual, it cannot settle them",
      ],
    ],
  },
  {
    topic: "perspectrum-666",
    kind: "hallucination",
    pro: ["p5531"],
    con: ["p5534", "p5535"],
    response:
      "Opinions differ on whether science can settle questions of value.\n\nOptimists say science can offer practical answers, devising policies that measurably raise people's overall happiness. Writers such as Sam Harris go further, arguing that human well-being depends on facts about the brain and can therefore be studied like any other natural phenomenon.\n\nSceptics counter that science has no business dictating how people ought to behave. They add that science lacks any spiritual dimension, which for them is essential to values.\n\nThe debate is unlikely to be resolved soon.",
    spans: [
      [
        "p5531",
        "science can offer practical answers, devising policies that measurably raise people's overall happiness",
      ],
      ["p5534", "science has no business dictating how people ought to behave"],
      ["p5535", "science lacks any spiritual dimension, which for them is essential to values"],
    ],
    errorSpans: [
      "Writers such as Sam Harris go further, arguing that human well-being depends on facts about the brain and can therefore be studied like any other natural phenomenon",
    ],
    note: "invented extra pro claim attributed to Sam Harris about well-being and brain facts",
  },
  {
    topic: "perspectrum-666",
    kind: "repetition",
    pro: ["p5531", "p5530"],
    con: ["p5535"],
    response:
      "There's no simple answer to whether science can determine human values.\n\nSupporters of the idea note that science can evaluate moral conduct empirically, examining what effects particular behaviour has on other people. It can also propose concrete solutions and policies to increase general happiness. In other words, they say, research can track and quantify how our moral choices affect those around us.\n\nCritics reply that science has no spiritual side, and values without that dimension, they feel, are incomplete.\n\nHow persuasive each view is depends largely on one's own beliefs.",
    spans: [
      [
        "p5530",
        "science can evaluate moral conduct empirically, examining what effects particular behaviour has on other people",
      ],
      ["p5531", "It can also propose concrete solutions and policies to increase general happiness"],
      [
        "p5530",
        "In other words, they say, research can track and quantify how our moral choices affect those around us",
      ],
      ["p5535", "science has no spiritual side, and values without that dimension, they feel, are incomplete"],
    ],
    errorSpans: [
      "In other words, they say, research can track and quantify how our moral choices affect those around us",
    ],
    note: "the measuring-moral-effects argument (p5530) is stated twice in different words",
  },
  {
    topic: "perspectrum-694",
    kind: "clean",
    pro: ["p5760", "p5757"],
    con: ["p5764", "p5043"],
    response:
      "Is it time to give up bottled water? Many people have strong feelings about it.\n\nThose who say yes start with price: bottled water can cost up to a thousand times as much as water from the tap. They also highlight the environmental toll, from the plastic bottles themselves to the fuel used to transport them.\n\nThose who say no point to emergencies, noting that bottled water is indispensable for relief efforts after natural disasters or during famines. They also argue that restricting sales limits consumers' access to a product they clearly want and hurts small businesses that depend on selling it.\n\nHow you weigh convenience and cost against environmental concerns will shape your answer.",
    spans: [
      ["p5760", "bottled water can cost up to a thousand times as much as water from the tap"],
      [
        "p5757",
        "They also highlight the environmental toll, from the plastic bottles themselves to the fuel used to transport them",
      ],
      ["p5764", "bottled water is indispensable for relief efforts after natural disasters or during famines"],
      [
        "p5043",
        "restricting sales limits consumers' access to a product they clearly want and hurts small businesses that depend on selling it",
      ],
    ],
  },
  {
    topic: "perspectrum-694",
    kind: "coverage",
    pro: ["p5038", "p5039"],
    con: ["p5765", "p5041"],
    response:
      "The case against bottled water is partly economic. Campaigners argue that giving it up would save people money, particularly since public drinking fountains are widely available and easy to use. Defenders of bottled water see things differently. For travellers in regions where tap water isn't safe, they say, bottled water is invaluable. They also argue that singling out water bottles makes little sense when other drinks come in plastic that is worse for the environment, and that bans don't necessarily cut waste anyway. The choice ultimately rests with consumers and policymakers alike.",
    spans: [
      [
        "p5038",
        "giving it up would save people money, particularly since public drinking fountains are widely available and easy to use",
      ],
      ["p5765", "For travellers in regions where tap water isn't safe, they say, bottled water is invaluable"],
      [
        "p5041",
        "singling out water bottles makes little sense when other drinks come in plastic that is worse for the environment, and that bans don't necessarily cut waste anyway",
      ],
    ],
    dropped: ["p5039"],
    note: "drops the pro argument that banning bottled water would protect local water supplies",
  },
  {
    topic: "perspectrum-694",
    kind: "both",
    pro: ["p5757", "p5760"],
    con: ["p25952", "p5042"],
    response:
      "Opinions on bottled water differ sharply.\n\nCritics of the industry focus on the environment: producing, shipping and discarding billions of plastic bottles causes serious harm. They also argue that stopping bottled water sales would help safeguard local springs and aquifers, which bottling companies can drain.\n\nDefenders say bottled water still has a place. Where the local drinking water is unsafe, they argue, people should rely on bottles. It's also a practical reserve to keep on hand for emergencies.\n\nThe answer may depend on where you live.",
    spans: [
      ["p5757", "producing, shipping and discarding billions of plastic bottles causes serious harm"],
      ["p25952", "Where the local drinking water is unsafe, they argue, people should rely on bottles"],
      ["p5042", "It's also a practical reserve to keep on hand for emergencies"],
    ],
    errorSpans: [
      "They also argue that stopping bottled water sales would help safeguard local springs and aquifers, which bottling companies can drain",
    ],
    extra: "p5039",
    dropped: ["p5760"],
    note: "drops the pro argument that bottled water costs up to 1,000 times tap water; adds the unused pro argument about protecting local water supplies",
  },
  {
    topic: "perspectrum-694",
    kind: "perspective-confusion",
    pro: ["p5757", "p5038"],
    con: ["p5042", "p5041"],
    response:
      "Should people stop buying bottled water? It's a question about the environment, money and practicality.\n\nCampaigners say bottled water damages the environment. They add that giving it up would save money, especially since public water fountains are convenient and easy to find. Other drinks, they also note, come in plastic containers that are even more harmful, and bans do not necessarily reduce waste.\n\nDefenders of bottled water emphasise its practical value as an emergency water supply, whether during a storm, a power cut or a burst mains pipe.\n\nUltimately, it's about balancing everyday habits against occasional needs.",
    spans: [
      ["p5757", "Campaigners say bottled water damages the environment"],
      [
        "p5038",
        "giving it up would save money, especially since public water fountains are convenient and easy to find",
      ],
      [
        "p5041",
        "Other drinks, they also note, come in plastic containers that are even more harmful, and bans do not necessarily reduce waste",
      ],
      [
        "p5042",
        "its practical value as an emergency water supply, whether during a storm, a power cut or a burst mains pipe",
      ],
    ],
    errorSpans: [
      "Other drinks, they also note, come in plastic containers that are even more harmful, and bans do not necessarily reduce waste",
    ],
    partial: "p5041",
    note: "the con argument that other drinks' plastic is worse and bans don't reduce waste is attributed to the campaigners against bottled water",
  },
  {
    topic: "perspectrum-705",
    kind: "clean",
    pro: ["p5853", "p5854"],
    con: ["p5855", "p5856"],
    response:
      "The idea that animals might have a right to privacy comes up most often in debates about wildlife filming.\n\nThose who defend such a right argue that animals, much like people, seem to want moments away from observation as well as moments in view, and so they deserve to have their privacy taken into account.\n\nSceptics doubt that animals have any concept of privacy or interest in it. They also stress what people gain from seeing wildlife up close in documentaries, which educate audiences and build support for conservation.\n\nIt's a question that blends ethics with what we know about animal minds.",
    spans: [
      ["p5853", "animals, much like people, seem to want moments away from observation as well as moments in view"],
      ["p5854", "they deserve to have their privacy taken into account"],
      ["p5855", "Sceptics doubt that animals have any concept of privacy or interest in it"],
      [
        "p5856",
        "what people gain from seeing wildlife up close in documentaries, which educate audiences and build support for conservation",
      ],
    ],
  },
  {
    topic: "perspectrum-705",
    kind: "clean",
    pro: ["p5854"],
    con: ["p5856"],
    response:
      "Should animals have a right to privacy? Those who say yes argue that animals' privacy deserves consideration, for instance when film crews intrude on nests and dens. Those who say no emphasise the value of wildlife documentaries, arguing that people benefit greatly from being able to watch animals in their natural habitats. The tension is between respect for animals and the human desire to observe them.",
    spans: [
      ["p5854", "animals' privacy deserves consideration, for instance when film crews intrude on nests and dens"],
      [
        "p5856",
        "the value of wildlife documentaries, arguing that people benefit greatly from being able to watch animals in their natural habitats",
      ],
    ],
  },
  {
    topic: "perspectrum-705",
    kind: "coverage",
    pro: ["p5853", "p5854"],
    con: ["p5855"],
    response:
      "Whether animals have a right to privacy is a more serious question than it might sound. Supporters argue that animals, like people, appear to seek out times of privacy as well as times of display. Critics are doubtful, maintaining that animals simply have no interest in privacy; it is a human concept projected onto them. The debate touches on how far our moral concepts extend beyond our own species, and on how little we can know about what animals experience.",
    spans: [
      ["p5853", "animals, like people, appear to seek out times of privacy as well as times of display"],
      ["p5855", "animals simply have no interest in privacy; it is a human concept projected onto them"],
    ],
    dropped: ["p5854"],
    note: "drops the pro argument that animals deserve to have their privacy considered",
  },
  {
    topic: "perspectrum-705",
    kind: "hallucination",
    pro: ["p5853"],
    con: ["p5855", "p5856"],
    response:
      "Do animals have a right to privacy? There's no consensus.\n\nSome argue that animals share our wish for moments of privacy alongside moments in the public eye. Broadcasters, they note, already have guidelines, including the BBC's, that require film crews to minimise disturbance to wildlife.\n\nOthers see it differently. Animals, in their view, have no interest in privacy at all. And wildlife documentaries give people enormous benefits, from education to a deeper appreciation of nature.\n\nThe question ultimately turns on how we understand animals' inner lives.",
    spans: [
      ["p5853", "animals share our wish for moments of privacy alongside moments in the public eye"],
      ["p5855", "Animals, in their view, have no interest in privacy at all"],
      [
        "p5856",
        "wildlife documentaries give people enormous benefits, from education to a deeper appreciation of nature",
      ],
    ],
    errorSpans: [
      "Broadcasters, they note, already have guidelines, including the BBC's, that require film crews to minimise disturbance to wildlife",
    ],
    note: "invented extra pro claim about broadcasters' (BBC) filming guidelines",
  },
];
