import type { HandExample } from "./a-types.ts";

/** Batch 2: topics perspectrum-192 to perspectrum-457. */
export const batch2: HandExample[] = [
  {
    topic: "perspectrum-192",
    kind: "coverage",
    pro: ["p1425", "p1424"],
    con: ["p1427", "p1428"],
    response:
      "Should governments deliberately choose open source software to encourage its use? Advocates argue that public contracts are big enough to push the whole software industry in a healthier direction, rewarding openness over lock-in. Skeptics see two problems. They contend that, once maintenance, support and training are counted, open source ends up costing governments more over the years than proprietary alternatives. They also argue that publicly visible code could expose weaknesses that hostile actors might exploit, undermining national security. As with most procurement questions, the answer depends on the specific systems and the resources available to maintain them.",
    spans: [
      [
        "p1425",
        "public contracts are big enough to push the whole software industry in a healthier direction, rewarding openness over lock-in",
      ],
      [
        "p1427",
        "once maintenance, support and training are counted, open source ends up costing governments more over the years than proprietary alternatives",
      ],
      [
        "p1428",
        "publicly visible code could expose weaknesses that hostile actors might exploit, undermining national security",
      ],
    ],
    dropped: ["p1424"],
    note: "adaptability to government needs (p1424) never mentioned",
  },
  {
    topic: "perspectrum-192",
    kind: "hallucination",
    pro: ["p1426", "p1425"],
    con: ["p1427"],
    response:
      "This is a debate about whether public purchasing power should be used to shape the software market. Supporters believe that when governments adopt open source, they can effectively set new standards that the rest of the industry follows. They also see government contracts as a lever for improving the software sector as a whole. Several European cities, including Munich, reported saving millions in licence fees after moving their desktops to Linux. Critics, however, warn that the apparent savings are misleading, and that over the long run open source tends to be the more expensive option for the public sector. Which view is right likely varies from one government to another.",
    spans: [
      [
        "p1426",
        "when governments adopt open source, they can effectively set new standards that the rest of the industry follows",
      ],
      ["p1425", "government contracts as a lever for improving the software sector as a whole"],
      [
        "p1427",
        "the apparent savings are misleading, and that over the long run open source tends to be the more expensive option for the public sector",
      ],
    ],
    errorSpans: [
      "Several European cities, including Munich, reported saving millions in licence fees after moving their desktops to Linux",
    ],
    note: "invented extra pro claim: Munich and other cities saved millions in licence fees",
  },
  {
    topic: "perspectrum-23",
    kind: "clean",
    pro: ["p170", "p169"],
    con: ["p173", "p172"],
    response:
      "Space exploration has inspired people for generations, but its value is still debated. Those who see it as essential argue that humanity has a moral duty to keep pushing the limits of what we know. They also point out that the challenge of reaching space has driven a long list of technological breakthroughs. Skeptics raise two objections. First, the money and talent poured into space missions could instead go toward more pressing needs, such as poverty or health care. Second, they argue that the sheer expense of exploring space outweighs whatever benefits it delivers. Ultimately, the answer depends on how one weighs long-term discovery against immediate needs.",
    spans: [
      ["p170", "humanity has a moral duty to keep pushing the limits of what we know"],
      ["p169", "the challenge of reaching space has driven a long list of technological breakthroughs"],
      [
        "p173",
        "the money and talent poured into space missions could instead go toward more pressing needs, such as poverty or health care",
      ],
      ["p172", "the sheer expense of exploring space outweighs whatever benefits it delivers"],
    ],
  },
  {
    topic: "perspectrum-23",
    kind: "hallucination",
    pro: ["p167", "p168"],
    con: ["p173"],
    response:
      "There's no simple answer to whether exploring the universe is crucial. Supporters make a practical case. National space agencies, they note, can build on infrastructure developed over the past fifty years, which makes new missions considerably cheaper than starting from scratch. They also credit space programs with transforming communications here on Earth, from satellite television to global positioning. Critics counter that every dollar spent on rockets is a dollar not spent on causes they consider more deserving. Some also warn that competition in space has historically stoked nationalism and rivalry between countries rather than cooperation. How one weighs these points depends on priorities.",
    spans: [
      [
        "p167",
        "National space agencies, they note, can build on infrastructure developed over the past fifty years, which makes new missions considerably cheaper than starting from scratch",
      ],
      [
        "p168",
        "space programs with transforming communications here on Earth, from satellite television to global positioning",
      ],
      ["p173", "every dollar spent on rockets is a dollar not spent on causes they consider more deserving"],
    ],
    errorSpans: [
      "Some also warn that competition in space has historically stoked nationalism and rivalry between countries rather than cooperation",
    ],
    extra: "p171",
    note: "unused con argument p171 (space race fuels nationalism) stated",
  },
  {
    topic: "perspectrum-23",
    kind: "partial-hallucination",
    pro: ["p169", "p168"],
    con: ["p172", "p171"],
    response:
      "People disagree about how important it is to explore space. On the one hand, supporters say exploration drives technological progress, as problems solved for spacecraft often find uses in everyday products. They go further and claim that virtually every advance in modern communications on Earth was made possible by the space program. On the other hand, critics argue that the costs of exploring space are greater than anything we get back. They also warn that the 'space race' mentality encourages nationalism and hostility between countries. Whether the effort is worthwhile depends on one's view of these trade-offs.",
    spans: [
      [
        "p169",
        "exploration drives technological progress, as problems solved for spacecraft often find uses in everyday products",
      ],
      ["p168", "virtually every advance in modern communications on Earth was made possible by the space program"],
      ["p172", "the costs of exploring space are greater than anything we get back"],
      ["p171", "the 'space race' mentality encourages nationalism and hostility between countries"],
    ],
    errorSpans: ["virtually every advance in modern communications on Earth was made possible by the space program"],
    note: "p168 shifted: 'has improved communications' -> 'virtually every advance in communications was made possible by it'",
  },
  {
    topic: "perspectrum-23",
    kind: "coverage",
    pro: ["p170", "p167"],
    con: ["p171", "p172"],
    response:
      "Is exploring the universe truly crucial? For many, the answer begins with curiosity: they believe there is a moral obligation to keep extending the frontiers of human knowledge, wherever that leads. Others are more doubtful. One concern is political, since the competition to reach space first has often fed national rivalry and mutual suspicion. Another is economic: critics argue that the bill for space exploration is simply larger than the benefits it brings. The question often comes down to whether one sees space as an investment or a luxury.",
    spans: [
      ["p170", "there is a moral obligation to keep extending the frontiers of human knowledge, wherever that leads"],
      ["p171", "the competition to reach space first has often fed national rivalry and mutual suspicion"],
      ["p172", "the bill for space exploration is simply larger than the benefits it brings"],
    ],
    dropped: ["p167"],
    note: "cheaper state programs using existing infrastructure (p167) never mentioned",
  },
  {
    topic: "perspectrum-25",
    kind: "clean",
    pro: ["p186", "p184"],
    con: ["p190", "p191"],
    response:
      "The Catholic Church's ban on condoms and other barrier contraceptives is one of its most debated teachings. Those who defend it start from doctrine: the Church holds that deliberately limiting procreation goes against God's will. Defenders also worry that relaxing the rule would encourage casual sex. Critics focus on the human cost. Barrier methods, they point out, can protect women whose husbands are infected with HIV or AIDS, and forbidding them leaves those women exposed. They also argue that the ban makes the Church look rigid and indifferent to suffering, which damages its standing. The disagreement reflects a deeper tension between doctrinal consistency and pastoral concern.",
    spans: [
      ["p186", "the Church holds that deliberately limiting procreation goes against God's will"],
      ["p184", "relaxing the rule would encourage casual sex"],
      [
        "p190",
        "Barrier methods, they point out, can protect women whose husbands are infected with HIV or AIDS, and forbidding them leaves those women exposed",
      ],
      ["p191", "the ban makes the Church look rigid and indifferent to suffering, which damages its standing"],
    ],
  },
  {
    topic: "perspectrum-25",
    kind: "both",
    pro: ["p187", "p183"],
    con: ["p190", "p191"],
    response:
      "Views on this question tend to depend on whether one starts from faith or from public health. Defenders of the prohibition see it in spiritual terms: in their view, following the teaching keeps believers from eternal damnation. They also stress that, according to Church teaching, any attempt to limit procreation is contrary to God's plan. Critics respond that condoms can shield wives from husbands carrying HIV, which makes the ban dangerous in practice. And they argue that clinging to it presents the Church as cold and inflexible. How one judges the ban depends on which of these considerations seems weightiest.",
    spans: [
      ["p187", "following the teaching keeps believers from eternal damnation"],
      ["p190", "condoms can shield wives from husbands carrying HIV, which makes the ban dangerous in practice"],
      ["p191", "clinging to it presents the Church as cold and inflexible"],
    ],
    errorSpans: ["according to Church teaching, any attempt to limit procreation is contrary to God's plan"],
    extra: "p186",
    dropped: ["p183"],
    note: "stability of the Church (p183) dropped; unused pro argument p186 (limiting procreation is against God) stated",
  },
  {
    topic: "perspectrum-25",
    kind: "repetition",
    repeated: "p190",
    pro: ["p186", "p187"],
    con: ["p190"],
    response:
      "Whether the Church is justified in forbidding barrier contraception depends largely on one's starting assumptions. Supporters of the teaching argue from theology. The Church considers any restriction on procreation to be against God, and it teaches that obeying this rule protects people from spending eternity in Hell. Critics raise a concrete concern: barrier methods can protect women from infection by husbands who have HIV or AIDS. In many parts of the world, they stress, a condom may be the only thing standing between a wife and a spouse's HIV infection. Both positions are held with deep conviction.",
    spans: [
      ["p186", "The Church considers any restriction on procreation to be against God"],
      ["p187", "obeying this rule protects people from spending eternity in Hell"],
      ["p190", "barrier methods can protect women from infection by husbands who have HIV or AIDS"],
    ],
    errorSpans: ["a condom may be the only thing standing between a wife and a spouse's HIV infection"],
    note: "p190 (protection from husbands with HIV) stated a second time",
  },
  {
    topic: "perspectrum-311",
    kind: "clean",
    pro: ["p2304", "p4570"],
    con: ["p4609", "p4592"],
    response:
      "Whether everyone should stop eating meat touches on ethics, the environment and personal freedom. Advocates of a vegetarian world make two main points. Cutting out meat, they say, would ease pressure on the planet. And when plant-based food is readily available, they consider it cruel and morally wrong to slaughter animals simply to eat them. Opponents see the matter differently. They regard choosing what to eat, meat included, as a basic freedom worth protecting. They also note that meat has been central to the human diet for millions of years and played a key role in how our species evolved. In the end, it is as much a question of values as of evidence.",
    spans: [
      ["p2304", "Cutting out meat, they say, would ease pressure on the planet"],
      [
        "p4570",
        "when plant-based food is readily available, they consider it cruel and morally wrong to slaughter animals simply to eat them",
      ],
      ["p4609", "choosing what to eat, meat included, as a basic freedom worth protecting"],
      [
        "p4592",
        "meat has been central to the human diet for millions of years and played a key role in how our species evolved",
      ],
    ],
  },
  {
    topic: "perspectrum-311",
    kind: "hallucination",
    pro: ["p2305", "p4583"],
    con: ["p4595", "p4600"],
    response:
      "The question of universal vegetarianism divides nutritionists, environmentalists and ordinary eaters alike. Proponents say a meat-free diet is simply better for your health. Some studies, they add, find vegetarians up to 40% less likely to get cancer than people who eat meat. They also point out that growing plants takes far less water than raising livestock. Critics are not convinced. They note that meat is the richest source of vitamin B12, which the nervous and digestive systems depend on. They also dispute the idea that giving up meat adds years to your life. For many people it remains a personal decision.",
    spans: [
      ["p2305", "a meat-free diet is simply better for your health"],
      ["p4583", "growing plants takes far less water than raising livestock"],
      ["p4595", "meat is the richest source of vitamin B12, which the nervous and digestive systems depend on"],
      ["p4600", "the idea that giving up meat adds years to your life"],
    ],
    errorSpans: [
      "Some studies, they add, find vegetarians up to 40% less likely to get cancer than people who eat meat",
    ],
    extra: "p4581",
    note: "unused pro argument p4581 (40% less cancer) stated",
  },
  {
    topic: "perspectrum-311",
    kind: "coverage",
    pro: ["p4573", "p2306"],
    con: ["p4603", "p4593", "p4611"],
    response:
      "Should everyone become vegetarian? People who think so argue that the crops now grown to feed livestock could feed people instead, helping to relieve hunger around the world. They also note that vegetarians face a lower risk of food poisoning, since meat is a common source of contamination. Skeptics dispute the hunger argument, contending that a vegetarian world would not actually solve food shortages, which are driven by poverty and distribution. They also point out that plant-based diets are not free of animal deaths: harvesting crops kills mice, rabbits and other creatures. Ultimately, the answer depends on which of these effects one finds most persuasive.",
    spans: [
      [
        "p4573",
        "the crops now grown to feed livestock could feed people instead, helping to relieve hunger around the world",
      ],
      ["p2306", "vegetarians face a lower risk of food poisoning, since meat is a common source of contamination"],
      [
        "p4603",
        "a vegetarian world would not actually solve food shortages, which are driven by poverty and distribution",
      ],
      [
        "p4611",
        "plant-based diets are not free of animal deaths: harvesting crops kills mice, rabbits and other creatures",
      ],
    ],
    dropped: ["p4593"],
    note: "meat as the most convenient protein source (p4593) never mentioned",
  },
  {
    topic: "perspectrum-311",
    kind: "clean",
    pro: ["p4589", "p4574", "p4579"],
    con: ["p4600", "p4596"],
    response:
      "Vegetarianism has many advocates, but making it universal is another matter. Supporters list several benefits. A plant-based diet, they argue, would curb the heavy use of antibiotics in livestock farming. They also cite evidence that vegetarians are less prone to kidney stones and gallstones, and that they tend to live longer than meat eaters. Opponents contest the longevity claim directly, arguing that vegetarians do not in fact outlive people who eat meat. They also maintain that meat supplies iron in a form the body uses better than the iron in plant foods. The evidence on diet and health is complex, and reasonable people interpret it differently.",
    spans: [
      ["p4589", "A plant-based diet, they argue, would curb the heavy use of antibiotics in livestock farming"],
      ["p4574", "vegetarians are less prone to kidney stones and gallstones"],
      ["p4579", "they tend to live longer than meat eaters"],
      ["p4600", "vegetarians do not in fact outlive people who eat meat"],
      ["p4596", "meat supplies iron in a form the body uses better than the iron in plant foods"],
    ],
  },
  {
    topic: "perspectrum-311",
    kind: "partial-coverage",
    pro: ["p4586", "p4571"],
    con: ["p4594", "p4608"],
    response:
      "A fully vegetarian world is a recurring proposal, and it meets firm resistance. Advocates point to pollution: raising animals for food, they say, fouls both the air and waterways. They also argue that human anatomy evolved mainly for a plant-based diet, so going vegetarian is a return to what our bodies are built for. Critics defend meat on nutritional grounds, noting that it supplies healthy saturated fats. They also reject the claim that animal farming is inherently cruel, arguing that raising animals for food can be done humanely. The debate is unlikely to be settled soon.",
    spans: [
      ["p4586", "raising animals for food, they say, fouls both the air and waterways"],
      [
        "p4571",
        "human anatomy evolved mainly for a plant-based diet, so going vegetarian is a return to what our bodies are built for",
      ],
      ["p4594", "it supplies healthy saturated fats"],
      [
        "p4608",
        "the claim that animal farming is inherently cruel, arguing that raising animals for food can be done humanely",
      ],
    ],
    dropped: ["p4594"],
    note: "p4594 half covered: healthy saturated fats kept, their benefit for immune and nervous systems dropped",
  },
  {
    topic: "perspectrum-374",
    kind: "clean",
    pro: ["p2781", "p2779"],
    con: ["p2784", "p2783"],
    response:
      "Restricting how the media covers violent crime pits two important values against each other. Supporters of restrictions argue that the state has a responsibility to protect the people caught up in a case, including victims, their families and the accused. They also contend that intense coverage can undermine the fairness of the legal process, for example by prejudicing juries. Opponents argue that a responsible press has both a duty and a right to report what happened, and that suppressing the facts runs against free speech. They add that the public needs to know how much violent crime there is in order to organize an effective response to it. Where to draw the line remains contested.",
    spans: [
      [
        "p2781",
        "the state has a responsibility to protect the people caught up in a case, including victims, their families and the accused",
      ],
      ["p2779", "intense coverage can undermine the fairness of the legal process, for example by prejudicing juries"],
      [
        "p2784",
        "a responsible press has both a duty and a right to report what happened, and that suppressing the facts runs against free speech",
      ],
      [
        "p2783",
        "the public needs to know how much violent crime there is in order to organize an effective response to it",
      ],
    ],
  },
  {
    topic: "perspectrum-374",
    kind: "coverage",
    pro: ["p2779"],
    con: ["p2786", "p2785"],
    response:
      "There's no easy consensus on limiting crime reporting. Those who favour restrictions worry that coverage of violent crimes can compromise the integrity of the justice system and the fairness of trials. Those against restrictions make a different case. If established newspapers and broadcasters were barred from covering violent crime, they argue, the story would not go away; it would simply be told by freelancers and bloggers who are less accurate and answer to no one. From this perspective, professional journalism is the better safeguard of accurate information. Ultimately, the question is how to balance a fair legal process against the public's access to information.",
    spans: [
      [
        "p2779",
        "coverage of violent crimes can compromise the integrity of the justice system and the fairness of trials",
      ],
      [
        "p2786",
        "If established newspapers and broadcasters were barred from covering violent crime, they argue, the story would not go away; it would simply be told by freelancers and bloggers who are less accurate and answer to no one",
      ],
    ],
    dropped: ["p2785"],
    note: "media as a check on the justice system (p2785) never mentioned",
  },
  {
    topic: "perspectrum-374",
    kind: "hallucination",
    pro: ["p2781"],
    con: ["p2783", "p2786"],
    response:
      "Should reporting on violent crime be restricted? Advocates of limits say the state owes protection to everyone involved, from victims and their relatives to defendants who have not yet been convicted. Opponents raise several points. People need a clear picture of how widespread violent crime is if communities are to respond to it effectively. If mainstream outlets stopped covering these crimes, the gap would be filled by freelance reporters and blogs that are less accountable and less accurate. Reporters, they add, also keep watch over police, prosecutors and courts, exposing mistakes and misconduct that might otherwise go unnoticed. The right balance is still debated.",
    spans: [
      [
        "p2781",
        "the state owes protection to everyone involved, from victims and their relatives to defendants who have not yet been convicted",
      ],
      [
        "p2783",
        "People need a clear picture of how widespread violent crime is if communities are to respond to it effectively",
      ],
      [
        "p2786",
        "If mainstream outlets stopped covering these crimes, the gap would be filled by freelance reporters and blogs that are less accountable and less accurate",
      ],
    ],
    errorSpans: [
      "Reporters, they add, also keep watch over police, prosecutors and courts, exposing mistakes and misconduct that might otherwise go unnoticed",
    ],
    extra: "p2785",
    note: "unused con argument p2785 (media as a check on the justice system) stated",
  },
  {
    topic: "perspectrum-457",
    kind: "clean",
    pro: ["p3405", "p3407"],
    con: ["p3409", "p3411"],
    response:
      "Free breakfast for every pupil is a popular idea, but not everyone is convinced. Supporters argue that it puts all children on an equal footing at the start of the school day, regardless of what is happening at home. They also say a healthy morning meal helps students concentrate in class. Opponents counter that feeding children is primarily the job of parents, not schools. They also point out that offering breakfast to every student places a heavier financial burden on schools. The debate ultimately turns on where responsibility for children's nutrition should lie.",
    spans: [
      [
        "p3405",
        "it puts all children on an equal footing at the start of the school day, regardless of what is happening at home",
      ],
      ["p3407", "a healthy morning meal helps students concentrate in class"],
      ["p3409", "feeding children is primarily the job of parents, not schools"],
      ["p3411", "offering breakfast to every student places a heavier financial burden on schools"],
    ],
  },
  {
    topic: "perspectrum-457",
    kind: "both",
    pro: ["p3406", "p3408"],
    con: ["p3409"],
    response:
      "Providing breakfast to all school students is an idea with strong supporters and committed skeptics. Those in favour argue that schools are the most reliable place to make sure children are eating well, since staff see them every day. A study by the charity Magic Breakfast, they add, found that pupils at schools offering free breakfast made two extra months of progress over a year. Critics answer that nutrition is something parents, not schools, should be responsible for, and that a universal program shifts that duty away from families. How one sees the proposal depends on views about the role of schools.",
    spans: [
      [
        "p3406",
        "schools are the most reliable place to make sure children are eating well, since staff see them every day",
      ],
      [
        "p3409",
        "nutrition is something parents, not schools, should be responsible for, and that a universal program shifts that duty away from families",
      ],
    ],
    errorSpans: [
      "A study by the charity Magic Breakfast, they add, found that pupils at schools offering free breakfast made two extra months of progress over a year",
    ],
    dropped: ["p3408"],
    note: "breakfast teaches about health (p3408) dropped; invented extra pro claim: Magic Breakfast study on pupil progress",
  },
  {
    topic: "perspectrum-457",
    kind: "hallucination",
    pro: ["p3405", "p3406"],
    con: ["p3411"],
    response:
      "Opinions differ on whether every student should get breakfast at school. Supporters say it means every child begins the day on the same footing, with nobody sitting in class hungry while others have eaten. They also see schools as the best-placed institutions to guarantee children get proper nutrition. Opponents focus on cost: feeding every student, they argue, would put considerably more financial strain on schools. Some also contend that public money should be concentrated on the neediest children rather than spread across everyone. Balancing fairness against cost is at the heart of the question.",
    spans: [
      [
        "p3405",
        "every child begins the day on the same footing, with nobody sitting in class hungry while others have eaten",
      ],
      ["p3406", "schools as the best-placed institutions to guarantee children get proper nutrition"],
      ["p3411", "feeding every student, they argue, would put considerably more financial strain on schools"],
    ],
    errorSpans: [
      "Some also contend that public money should be concentrated on the neediest children rather than spread across everyone",
    ],
    extra: "p3410",
    note: "unused argument p3410 (government should focus on the most needy) stated",
  },
];
