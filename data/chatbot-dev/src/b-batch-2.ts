import type { HandExampleB } from "./b-types.ts";

/** Batch 2: compulsory voting, public smoking bans, sex education, airbrushing, animal testing. */
export const batch2: HandExampleB[] = [
  {
    topic: "perspectrum-286",
    kind: "clean",
    pro: ["p2113", "p2114"],
    con: ["p5814"],
    response:
      "Compulsory voting sounds simple, but it raises real questions about rights and representation. Advocates treat casting a ballot as one of the basic obligations of citizenship, much like paying taxes or serving on a jury. They add that when everyone must vote, poorer and marginalised groups, who are usually the least likely to turn out, end up with a fairer share of the say. Opponents insist that in a free society the right to vote must include the right to abstain, and that staying home can be a legitimate choice.",
    spans: [
      [
        "p2113",
        "Advocates treat casting a ballot as one of the basic obligations of citizenship, much like paying taxes or serving on a jury",
      ],
      [
        "p2114",
        "when everyone must vote, poorer and marginalised groups, who are usually the least likely to turn out, end up with a fairer share of the say",
      ],
      [
        "p5814",
        "in a free society the right to vote must include the right to abstain, and that staying home can be a legitimate choice",
      ],
    ],
  },
  {
    topic: "perspectrum-286",
    kind: "clean",
    pro: ["p2115", "p2117", "p2116"],
    con: ["p5817", "p2119"],
    response:
      "Critics of compulsory voting have two main worries. People who turn out only to avoid a fine, they argue, are unlikely to study the issues, so mandatory voting may add a lot of uninformed ballots. They also doubt whether the system can be run properly: tracking down non-voters, processing penalties and paying for it all would be a heavy administrative burden.\n\nSupporters see it differently. Countries such as Australia and Belgium have used it for decades without serious trouble, they say. Requiring everyone to vote also tends to draw more people into following politics, and when turnout is near universal, organised lobbies and special interest groups lose some of their outsized influence over results.\n\nWhich matters more, liberty or participation, is the heart of the question.",
    spans: [
      [
        "p5817",
        "People who turn out only to avoid a fine, they argue, are unlikely to study the issues, so mandatory voting may add a lot of uninformed ballots",
      ],
      [
        "p2119",
        "tracking down non-voters, processing penalties and paying for it all would be a heavy administrative burden",
      ],
      ["p2116", "Countries such as Australia and Belgium have used it for decades without serious trouble"],
      ["p2115", "Requiring everyone to vote also tends to draw more people into following politics"],
      [
        "p2117",
        "when turnout is near universal, organised lobbies and special interest groups lose some of their outsized influence over results",
      ],
    ],
  },
  {
    topic: "perspectrum-286",
    kind: "coverage",
    pro: ["p5810", "p2113"],
    con: ["p2120", "p25996"],
    response:
      "Should voting be made compulsory? Here's a balanced look.\n\nProponents describe voting as a duty citizens owe to one another, not merely a right they may exercise. They also note that mandatory voting is a proven model that works well where it has been tried.\n\nSceptics believe it treats the symptom rather than the disease. Low turnout, they argue, has deeper causes, and there are other measures that would address those causes directly instead of compelling people to show up.\n\nBoth views aim at a healthier democracy; they differ on the means.",
    spans: [
      [
        "p2113",
        "Proponents describe voting as a duty citizens owe to one another, not merely a right they may exercise",
      ],
      ["p5810", "mandatory voting is a proven model that works well where it has been tried"],
      [
        "p2120",
        "Low turnout, they argue, has deeper causes, and there are other measures that would address those causes directly instead of compelling people to show up",
      ],
    ],
    dropped: ["p25996"],
    note: "drops the con argument that convincing people is more effective than forcing them",
  },
  {
    topic: "perspectrum-286",
    kind: "hallucination",
    pro: ["p2114"],
    con: ["p5816", "p5818"],
    response:
      "Compulsory voting is one of those reforms that sounds either obviously right or obviously wrong, depending on whom you ask.\n\nIts defenders focus on who gets heard. When voting is optional, the disadvantaged tend to stay home, so making it mandatory would bring their interests into the count more fully.\n\nIts detractors doubt that democracy gains anything real from compelling people to the polls. Many also feel there is little point in voting at all, since politicians pay scant attention to what the public wants once elected. If the goal is higher turnout, they suggest, holding elections on weekends would achieve more with less coercion.\n\nThe disagreement ultimately reflects different ideas of what citizenship demands.",
    spans: [
      [
        "p2114",
        "When voting is optional, the disadvantaged tend to stay home, so making it mandatory would bring their interests into the count more fully",
      ],
      ["p5816", "Its detractors doubt that democracy gains anything real from compelling people to the polls"],
      [
        "p5818",
        "there is little point in voting at all, since politicians pay scant attention to what the public wants once elected",
      ],
    ],
    errorSpans: [
      "If the goal is higher turnout, they suggest, holding elections on weekends would achieve more with less coercion",
    ],
    extra: "p5813",
    note: "states the unused con argument that weekend voting would be a more sensible solution",
  },
  {
    topic: "perspectrum-34",
    kind: "clean",
    pro: ["p263", "p265"],
    con: ["p269", "p268"],
    response:
      "Public smoking bans have spread widely, but the arguments around them haven't gone away.\n\nSupporters say non-smokers have a right not to breathe other people's smoke, and forcing second-hand smoke on them violates that right. They also expect a ban to nudge smokers toward cutting down, and some toward quitting entirely.\n\nOpponents worry about livelihoods: bars, pubs and nightclubs that depend on smoking customers could lose so much trade that many close. And they defend personal liberty, arguing that smokers are entitled to their pleasures like anyone else.\n\nWhere you come down depends on how you balance public health and personal freedom.",
    spans: [
      [
        "p263",
        "non-smokers have a right not to breathe other people's smoke, and forcing second-hand smoke on them violates that right",
      ],
      ["p265", "They also expect a ban to nudge smokers toward cutting down, and some toward quitting entirely"],
      ["p269", "bars, pubs and nightclubs that depend on smoking customers could lose so much trade that many close"],
      ["p268", "smokers are entitled to their pleasures like anyone else"],
    ],
  },
  {
    topic: "perspectrum-34",
    kind: "both",
    pro: ["p264", "p266"],
    con: ["p267"],
    response:
      "Banning smoking in public places is often framed as a health measure, and the economic case is part of that. Supporters argue that fewer people exposed to smoke means fewer smoking-related illnesses, which would ease the strain on health budgets. The World Health Organization, they note, attributes more than a million deaths a year to second-hand smoke.\n\nOpponents are not necessarily pro-smoking; many simply doubt that a ban would work in practice. Policing every park bench, bus stop and street corner would be close to impossible, they argue, so enforcement would be patchy at best.\n\nIn short, the debate turns less on whether smoking is harmful than on what a ban can realistically achieve.",
    spans: [
      [
        "p264",
        "fewer people exposed to smoke means fewer smoking-related illnesses, which would ease the strain on health budgets",
      ],
      [
        "p267",
        "Policing every park bench, bus stop and street corner would be close to impossible, they argue, so enforcement would be patchy at best",
      ],
    ],
    errorSpans: [
      "The World Health Organization, they note, attributes more than a million deaths a year to second-hand smoke",
    ],
    dropped: ["p266"],
    note: "drops the pro argument that the ban would be easy to introduce; adds an invented WHO statistic on second-hand smoke deaths",
  },
  {
    topic: "perspectrum-34",
    kind: "coverage",
    pro: ["p265", "p263", "p264"],
    con: ["p268", "p267"],
    response:
      "There's no simple answer to whether smoking should be banned in public spaces, and the arguments tend to fall into two groups. On the health side, advocates stress the rights of people who don't smoke: being made to inhale someone else's smoke in a restaurant or on a train platform, they argue, is an imposition they never agreed to. Lower public spending on treating smoking-related disease is another benefit they expect. On the liberty side, critics maintain that smokers are adults entitled to enjoy a cigarette, and that a ban would be hard to enforce in practice, especially outdoors.",
    spans: [
      [
        "p263",
        "being made to inhale someone else's smoke in a restaurant or on a train platform, they argue, is an imposition they never agreed to",
      ],
      ["p264", "Lower public spending on treating smoking-related disease is another benefit they expect"],
      ["p268", "smokers are adults entitled to enjoy a cigarette"],
      ["p267", "a ban would be hard to enforce in practice, especially outdoors"],
    ],
    dropped: ["p265"],
    note: "drops the pro argument that a ban would encourage smokers to cut down or quit",
  },
  {
    topic: "perspectrum-34",
    kind: "partial-hallucination",
    pro: ["p266", "p264"],
    con: ["p269", "p267"],
    response:
      "Opinions differ sharply on public smoking bans.\n\nIn favour, people argue that such a ban would be simple to put in place, since it needs little more than a law and some signage. They also claim it would wipe out the public cost of treating smoking-related illness altogether.\n\nAgainst, critics warn of the economic fallout: many pubs, clubs and similar venues, they say, would lose customers and be forced to shut their doors. They also doubt the ban could be enforced, as authorities have neither the staff nor the means to check every public space.\n\nUltimately, the answer depends on how one weighs these concerns.",
    spans: [
      ["p266", "such a ban would be simple to put in place, since it needs little more than a law and some signage"],
      ["p264", "They also claim it would wipe out the public cost of treating smoking-related illness altogether"],
      ["p269", "many pubs, clubs and similar venues, they say, would lose customers and be forced to shut their doors"],
      [
        "p267",
        "They also doubt the ban could be enforced, as authorities have neither the staff nor the means to check every public space",
      ],
    ],
    errorSpans: ["wipe out the public cost of treating smoking-related illness altogether"],
    note: "p264 says the ban would lower healthcare costs; the response says it would eliminate them",
  },
  {
    topic: "perspectrum-453",
    kind: "clean",
    pro: ["p3802", "p3804"],
    con: ["p3383", "p3808"],
    response:
      "Should schools teach young people about safe sex? It's a debate that touches on health, family values and the role of the state.\n\nAdvocates see sex education as a kind of inoculation: pupils who know how infections spread and how contraception works are less likely to catch a sexually transmitted disease or face an unplanned pregnancy. They also point out that not every parent can be relied on to cover the subject properly, if at all.\n\nCritics fear the opposite effect, that talking openly about sex in class prompts teenagers to experiment earlier and, indirectly, makes casual sex seem normal. Some also feel that sexuality unfolds gradually through personal experience and is not something a classroom lesson can meaningfully teach.\n\nBoth sides want young people to be safe; they disagree on the route.",
    spans: [
      [
        "p3802",
        "Advocates see sex education as a kind of inoculation: pupils who know how infections spread and how contraception works are less likely to catch a sexually transmitted disease or face an unplanned pregnancy",
      ],
      ["p3804", "not every parent can be relied on to cover the subject properly, if at all"],
      [
        "p3383",
        "talking openly about sex in class prompts teenagers to experiment earlier and, indirectly, makes casual sex seem normal",
      ],
      [
        "p3808",
        "sexuality unfolds gradually through personal experience and is not something a classroom lesson can meaningfully teach",
      ],
    ],
  },
  {
    topic: "perspectrum-453",
    kind: "clean",
    pro: ["p3381", "p3382", "p3805"],
    con: ["p3386"],
    response:
      "Whether safe sex should be promoted through school education is a long-running argument.\n\nThose in favour make three points. First, in an age of smartphones and search engines, young people will find information about sex anyway, so trying to keep it from them is futile. Second, withholding that information from teenagers makes little sense when the law already treats them as old enough to consent. Third, they argue that even deeply religious or conservative communities stand to gain from compulsory lessons, whatever their initial reservations.\n\nThose against focus on the law: teaching sex education to children below the age of consent, they argue, sits uneasily with legal limits and may undermine them.\n\nUltimately, it depends on how one weighs these concerns.",
    spans: [
      [
        "p3381",
        "in an age of smartphones and search engines, young people will find information about sex anyway, so trying to keep it from them is futile",
      ],
      [
        "p3382",
        "withholding that information from teenagers makes little sense when the law already treats them as old enough to consent",
      ],
      [
        "p3805",
        "even deeply religious or conservative communities stand to gain from compulsory lessons, whatever their initial reservations",
      ],
      [
        "p3386",
        "teaching sex education to children below the age of consent, they argue, sits uneasily with legal limits and may undermine them",
      ],
    ],
  },
  {
    topic: "perspectrum-453",
    kind: "hallucination",
    pro: ["p3802"],
    con: ["p3807", "p3386"],
    response:
      "There's no simple answer here.\n\nProponents view classroom sex education as protection: it shields teenagers from sexually transmitted infections and helps prevent unwanted pregnancies, much like a vaccine guards against disease. They also cite UNESCO, whose international guidance recommends comprehensive sexuality education starting in primary school.\n\nOpponents raise two objections. They argue that adding sex education takes time and focus away from core subjects and harms the education system as a whole. And they contend that teaching the subject to children who are under the age of consent risks undermining the very law meant to protect them.\n\nWhere one stands often reflects broader views about the role of schools.",
    spans: [
      [
        "p3802",
        "it shields teenagers from sexually transmitted infections and helps prevent unwanted pregnancies, much like a vaccine guards against disease",
      ],
      [
        "p3807",
        "adding sex education takes time and focus away from core subjects and harms the education system as a whole",
      ],
      [
        "p3386",
        "teaching the subject to children who are under the age of consent risks undermining the very law meant to protect them",
      ],
    ],
    errorSpans: [
      "They also cite UNESCO, whose international guidance recommends comprehensive sexuality education starting in primary school",
    ],
    note: "invented extra pro claim citing UNESCO guidance",
  },
  {
    topic: "perspectrum-453",
    kind: "coverage",
    pro: ["p3805", "p3804"],
    con: ["p3383", "p3807", "p3808"],
    response:
      "Sex education in schools remains contested. Its backers argue that parents cannot always be counted on to give their children adequate information about sex, so schools need to fill the gap. They add that even religious and conservative communities, often the most wary, would ultimately benefit from making it mandatory. Critics see risks instead. They believe lessons about sex can encourage early experimentation and, in the long run, a more promiscuous culture. And they doubt that something as personal as sexual development, which happens through gradual discovery, can be taught effectively in a classroom at all. The balance between these views differs from one community to another.",
    spans: [
      [
        "p3804",
        "parents cannot always be counted on to give their children adequate information about sex, so schools need to fill the gap",
      ],
      [
        "p3805",
        "even religious and conservative communities, often the most wary, would ultimately benefit from making it mandatory",
      ],
      [
        "p3383",
        "lessons about sex can encourage early experimentation and, in the long run, a more promiscuous culture",
      ],
      [
        "p3808",
        "something as personal as sexual development, which happens through gradual discovery, can be taught effectively in a classroom at all",
      ],
    ],
    dropped: ["p3807"],
    note: "drops the con argument that sex education damages the education system",
  },
  {
    topic: "perspectrum-458",
    kind: "clean",
    pro: ["p3413", "p3416"],
    con: ["p3421", "p3420"],
    response:
      "Should the media be banned from airbrushing women's bodies? Supporters of a ban argue that retouched images treat women's bodies as objects to be perfected and displayed, and that outlawing the practice could help bring about a healthier shift in culture. Opponents are less sure. Some warn that a ban could backfire and make the underlying problem worse rather than better. Others see retouching more positively, saying it lets anyone appear flawless in a photo, not just those born with model looks. Ultimately, it's a question of how much the law should shape the images we see.",
    spans: [
      ["p3413", "retouched images treat women's bodies as objects to be perfected and displayed"],
      ["p3416", "outlawing the practice could help bring about a healthier shift in culture"],
      ["p3421", "a ban could backfire and make the underlying problem worse rather than better"],
      ["p3420", "it lets anyone appear flawless in a photo, not just those born with model looks"],
    ],
  },
  {
    topic: "perspectrum-458",
    kind: "coverage",
    pro: ["p3415", "p3413"],
    con: ["p3420"],
    response:
      "Airbrushing in advertising and magazines has drawn increasing criticism, but a ban is another matter.\n\nThose who back a ban focus on objectification. Digitally reshaping women's bodies, they argue, reduces women to their appearance and presents their bodies as products to be edited.\n\nThose against a ban point out that retouching has an egalitarian side: with a little editing, anyone can look perfect on the page.\n\nHow these concerns are weighed varies from one country's regulators to the next.",
    spans: [
      [
        "p3413",
        "Digitally reshaping women's bodies, they argue, reduces women to their appearance and presents their bodies as products to be edited",
      ],
      ["p3420", "retouching has an egalitarian side: with a little editing, anyone can look perfect on the page"],
    ],
    dropped: ["p3415"],
    note: "drops the pro argument that a ban would give women the opportunity to speak out",
  },
  {
    topic: "perspectrum-458",
    kind: "both",
    pro: ["p3416", "p3415"],
    con: ["p3421"],
    response:
      "Opinions on banning airbrushed images of women are divided. For supporters, a ban would do more than change pictures; it would give women a platform and the confidence to speak out about how they are represented. Critics counter that prohibition could backfire and leave the problem worse than before. They also argue that retouching has its merits, since it allows anyone to look their best in print. It remains an open question which approach would actually help women most, and the evidence either way is still thin.",
    spans: [
      ["p3415", "it would give women a platform and the confidence to speak out about how they are represented"],
      ["p3421", "prohibition could backfire and leave the problem worse than before"],
    ],
    errorSpans: ["They also argue that retouching has its merits, since it allows anyone to look their best in print"],
    extra: "p3420",
    dropped: ["p3416"],
    note: "drops the pro argument about a beneficial cultural shift; adds the unused con argument that airbrushing lets everyone be perfect",
  },
  {
    topic: "perspectrum-458",
    kind: "repetition",
    pro: ["p3413", "p3415", "p3416"],
    con: ["p3421"],
    response:
      "Banning airbrushing of women's bodies in the media is a proposal with strong feelings on both sides.\n\nAdvocates argue that airbrushing objectifies women, turning their bodies into something to be sculpted for display. A ban, they believe, would give women room to speak up about their own bodies and could spark a wider, positive change in culture. At its root, they stress, the practice treats women as things to be looked at rather than people.\n\nOpponents worry that a ban could end up aggravating the very problem it is meant to solve.\n\nUltimately, the debate turns on whether regulation is the right tool for a cultural problem.",
    spans: [
      ["p3413", "airbrushing objectifies women, turning their bodies into something to be sculpted for display"],
      ["p3415", "A ban, they believe, would give women room to speak up about their own bodies"],
      ["p3416", "could spark a wider, positive change in culture"],
      ["p3413", "At its root, they stress, the practice treats women as things to be looked at rather than people"],
      ["p3421", "a ban could end up aggravating the very problem it is meant to solve"],
    ],
    errorSpans: ["At its root, they stress, the practice treats women as things to be looked at rather than people"],
    note: "the objectification argument (p3413) is stated twice in different words",
  },
  {
    topic: "perspectrum-47",
    kind: "clean",
    pro: ["p4543", "p4544", "p4546"],
    con: ["p26869", "p4536"],
    response:
      "Animal testing is one of the most emotive questions in science policy.\n\nThose who want it banned describe the practice as cruel and inhumane. They argue that it is no longer needed, because methods such as cell cultures and computer modelling can now do the same job. And they question its value even on its own terms: a drug that performs well in animals may still prove harmful in people.\n\nDefenders reply that animal studies make medicines and products safer for the humans who will eventually use them. They also note a practical advantage: because many animals live much shorter lives than people, researchers can observe effects across a whole lifespan or several generations far more quickly.\n\nIt's a clash between animal welfare and human safety, and the two are hard to weigh against each other.",
    spans: [
      ["p4543", "describe the practice as cruel and inhumane"],
      [
        "p4544",
        "it is no longer needed, because methods such as cell cultures and computer modelling can now do the same job",
      ],
      ["p4546", "a drug that performs well in animals may still prove harmful in people"],
      ["p26869", "animal studies make medicines and products safer for the humans who will eventually use them"],
      [
        "p4536",
        "because many animals live much shorter lives than people, researchers can observe effects across a whole lifespan or several generations far more quickly",
      ],
    ],
  },
  {
    topic: "perspectrum-47",
    kind: "clean",
    pro: ["p4552", "p4548"],
    con: ["p4537", "p350"],
    response:
      "Should tests on animals be banned? Views differ widely.\n\nOne argument for a ban is philosophical: animals can feel pain much as we do, so experimenting on them while refusing to experiment on humans amounts to speciesism, a prejudice in favour of our own kind. Campaigners add that the legal safeguards are thin, noting that around 95% of the animals used in experiments fall outside the protection of the Animal Welfare Act.\n\nResearchers see it otherwise. Developing genuinely new compounds, they say, still requires animal studies at some stage. They also insist that laboratory animals are treated humanely, both out of concern for their welfare and because stressed or mistreated animals would produce unreliable data.\n\nWhere one lands depends on one's view of animals' moral status.",
    spans: [
      [
        "p4552",
        "animals can feel pain much as we do, so experimenting on them while refusing to experiment on humans amounts to speciesism, a prejudice in favour of our own kind",
      ],
      ["p4548", "around 95% of the animals used in experiments fall outside the protection of the Animal Welfare Act"],
      ["p350", "Developing genuinely new compounds, they say, still requires animal studies at some stage"],
      [
        "p4537",
        "laboratory animals are treated humanely, both out of concern for their welfare and because stressed or mistreated animals would produce unreliable data",
      ],
    ],
  },
  {
    topic: "perspectrum-47",
    kind: "hallucination",
    pro: ["p4550"],
    con: ["p351", "p7406"],
    response:
      "The question of banning animal testing usually comes down to cost, necessity and ethics.\n\nCritics of animal research argue that it is a poor use of public money: experiments on animals cost more than the alternative methods available, so government research budgets are being wasted.\n\nSupporters of the current system respond that animals are only used when no other research method will do the job. In their view there are simply no adequate substitutes for animal research yet. Some also appeal to religious tradition, which in many faiths grants humans dominion over animals and their use.\n\nWhether that reasoning holds up is something each person must judge.",
    spans: [
      [
        "p4550",
        "it is a poor use of public money: experiments on animals cost more than the alternative methods available, so government research budgets are being wasted",
      ],
      ["p351", "animals are only used when no other research method will do the job"],
      ["p7406", "In their view there are simply no adequate substitutes for animal research yet"],
    ],
    errorSpans: [
      "Some also appeal to religious tradition, which in many faiths grants humans dominion over animals and their use",
    ],
    extra: "p4541",
    note: "states the unused con argument that religious traditions allow human dominion over animals",
  },
  {
    topic: "perspectrum-47",
    kind: "perspective-confusion",
    pro: ["p22151", "p347"],
    con: ["p22159", "p4540"],
    response:
      "Animal testing raises a hard ethical trade-off.\n\nCampaigners for a ban believe that ending it would send a strong social signal, strengthening respect for animal welfare across society more broadly.\n\nThose who defend testing start from the view that causing harm to animals is wrong in itself. Even so, they insist that medicine still depends on being able to test drugs on animals before they reach people, and that some cosmetics and health-care products can only be shown to be safe through animal tests.\n\nHow to reconcile these positions is a question that regulators continue to grapple with.",
    spans: [
      [
        "p347",
        "ending it would send a strong social signal, strengthening respect for animal welfare across society more broadly",
      ],
      ["p22151", "causing harm to animals is wrong in itself"],
      ["p22159", "medicine still depends on being able to test drugs on animals before they reach people"],
      ["p4540", "some cosmetics and health-care products can only be shown to be safe through animal tests"],
    ],
    errorSpans: ["causing harm to animals is wrong in itself"],
    partial: "p22151",
    note: "the pro (ban) argument that harming animals is bad is presented as the defenders' starting point",
  },
];
