import type { HandExample } from "./a-types.ts";

/** Batch 7: held-out topics perspectrum-844 to perspectrum-921. */
export const batch7: HandExample[] = [
  {
    topic: "perspectrum-844",
    kind: "clean",
    pro: ["p6842", "p6841"],
    con: ["p6847", "p6844"],
    response:
      "Whether parents should be legally barred from smacking or otherwise physically punishing their children is debated in many countries. Those who favour a ban argue that the damage physical punishment can do to children is serious enough to justify outlawing it. They also contend that it simply does not work well as a way of disciplining children. Those against a ban note that a number of religious traditions endorse some form of physical correction. They also maintain that physical punishment is justified when it is used as a means of discipline. Laws on the issue vary widely from one country to another.",
    spans: [
      ["p6842", "the damage physical punishment can do to children is serious enough to justify outlawing it"],
      ["p6841", "it simply does not work well as a way of disciplining children"],
      ["p6847", "a number of religious traditions endorse some form of physical correction"],
      ["p6844", "physical punishment is justified when it is used as a means of discipline"],
    ],
  },
  {
    topic: "perspectrum-844",
    kind: "coverage",
    pro: ["p6842", "p6841"],
    con: ["p6847", "p6844"],
    response:
      "Should physical chastisement of children be made illegal? Advocates of a ban make two points. First, they argue that the harm caused by hitting children is substantial enough to warrant prohibiting it outright. Second, they say that physical punishment is an ineffective way to discipline a child, whatever parents may believe. Opponents of a ban take a different view of discipline: in their eyes, a measured physical punishment can be justified as part of correcting a child's behaviour. Ultimately, the answer depends on how one weighs parental discretion against child protection.",
    spans: [
      ["p6842", "the harm caused by hitting children is substantial enough to warrant prohibiting it outright"],
      ["p6841", "physical punishment is an ineffective way to discipline a child, whatever parents may believe"],
      ["p6844", "a measured physical punishment can be justified as part of correcting a child's behaviour"],
    ],
    dropped: ["p6847"],
    note: "religious support for physical chastisement (p6847) never mentioned",
  },
  {
    topic: "perspectrum-844",
    kind: "repetition",
    repeated: "p6841",
    pro: ["p6841"],
    con: ["p6847", "p6844"],
    response:
      "Opinions on banning physical chastisement differ sharply. Those in favour of a ban argue that hitting children is not an effective form of discipline. Those against point out that several religions support some form of physical punishment of children. They also argue that chastisement is justified when it serves a genuinely disciplinary purpose. Supporters of a ban answer that smacking simply fails to teach children better behaviour, so it achieves nothing that other methods could not. The debate involves values as much as evidence.",
    spans: [
      ["p6841", "hitting children is not an effective form of discipline"],
      ["p6847", "several religions support some form of physical punishment of children"],
      ["p6844", "chastisement is justified when it serves a genuinely disciplinary purpose"],
    ],
    errorSpans: [
      "smacking simply fails to teach children better behaviour, so it achieves nothing that other methods could not",
    ],
    note: "p6841 (physical chastisement is ineffective discipline) stated a second time",
  },
  {
    topic: "perspectrum-87",
    kind: "clean",
    pro: ["p648", "p650"],
    con: ["p652", "p651"],
    response:
      "Whether women should serve in combat roles has been debated by militaries and the public for decades. Supporters argue that opening combat roles to women widens the pool of potential recruits. They also see it as a matter of basic equality between men and women. Opponents point to evidence that women suffer injuries at a comparatively higher rate in demanding combat training. They also worry that bringing women into previously all-male units can lead some men to behave badly. The question continues to be debated as armed forces review their policies.",
    spans: [
      ["p648", "opening combat roles to women widens the pool of potential recruits"],
      ["p650", "a matter of basic equality between men and women"],
      ["p652", "women suffer injuries at a comparatively higher rate in demanding combat training"],
      ["p651", "bringing women into previously all-male units can lead some men to behave badly"],
    ],
  },
  {
    topic: "perspectrum-87",
    kind: "hallucination",
    pro: ["p648", "p650"],
    con: ["p652"],
    response:
      "Those in favour argue that letting women serve in combat increases the number of people the military can recruit from. They also insist that men and women should be treated equally, including on the battlefield. Those opposed note that women have a relatively higher injury rate. They also raise the risk of sexual violence, warning that women in combat zones could face rape by enemy forces or even by fellow soldiers. How these concerns are weighed varies between countries and militaries.",
    spans: [
      ["p648", "letting women serve in combat increases the number of people the military can recruit from"],
      ["p650", "men and women should be treated equally, including on the battlefield"],
      ["p652", "women have a relatively higher injury rate"],
    ],
    errorSpans: [
      "They also raise the risk of sexual violence, warning that women in combat zones could face rape by enemy forces or even by fellow soldiers",
    ],
    extra: "p655",
    note: "unused con argument p655 (battlefield rape) stated",
  },
  {
    topic: "perspectrum-87",
    kind: "clean",
    pro: ["p650"],
    con: ["p655", "p651", "p652"],
    response:
      "Allowing women in combat raises questions of fairness as well as practical concerns. For supporters, the issue is equality: men and women should have the same opportunities, including in combat. Opponents list several concerns. They worry about the threat of rape on the battlefield. They argue that mixing women into male combat units can provoke bad behaviour among the men. And they cite data showing that female soldiers are injured relatively more often than male soldiers. How much weight each concern deserves is still argued over.",
    spans: [
      ["p650", "men and women should have the same opportunities, including in combat"],
      ["p655", "the threat of rape on the battlefield"],
      ["p651", "mixing women into male combat units can provoke bad behaviour among the men"],
      ["p652", "female soldiers are injured relatively more often than male soldiers"],
    ],
  },
  {
    topic: "perspectrum-87",
    kind: "partial-hallucination",
    pro: ["p648", "p650"],
    con: ["p652", "p655"],
    response:
      "Women's role in combat units is still a live policy question. Supporters say that admitting women to combat roles expands the pool of recruits the armed forces can draw on, and that fairness requires equal treatment of men and women. Opponents counter that women are injured at twice the rate of men in combat units, which they see as a serious problem for readiness. They also cite the danger of rape on the battlefield. Ultimately, the question involves both principles and practicalities.",
    spans: [
      ["p648", "admitting women to combat roles expands the pool of recruits the armed forces can draw on"],
      ["p650", "fairness requires equal treatment of men and women"],
      [
        "p652",
        "women are injured at twice the rate of men in combat units, which they see as a serious problem for readiness",
      ],
      ["p655", "the danger of rape on the battlefield"],
    ],
    errorSpans: ["women are injured at twice the rate of men in combat units"],
    note: "p652 shifted: 'relatively higher female injury rate' -> 'injured at twice the rate of men'",
  },
  {
    topic: "perspectrum-894",
    kind: "clean",
    pro: ["p7176", "p943"],
    con: ["p944", "p946"],
    response:
      "Should chess, quizzing and debating join the Olympics? Supporters point out that mind sports are among the oldest competitive pursuits in the world, and among the most fiercely contested. They also note that chess has an enormous following and argue that such a popular game deserves a place at the Games. Critics reply that chess involves none of the physical exertion that defines Olympic sport. They also think that letting borderline activities into the Olympics would be a bad thing in its own right, diluting what the Games stand for. Where one stands depends on how one defines a sport.",
    spans: [
      [
        "p7176",
        "mind sports are among the oldest competitive pursuits in the world, and among the most fiercely contested",
      ],
      ["p943", "chess has an enormous following and argue that such a popular game deserves a place at the Games"],
      ["p944", "chess involves none of the physical exertion that defines Olympic sport"],
      [
        "p946",
        "letting borderline activities into the Olympics would be a bad thing in its own right, diluting what the Games stand for",
      ],
    ],
  },
  {
    topic: "perspectrum-894",
    kind: "coverage",
    pro: ["p940", "p941"],
    con: ["p944", "p945"],
    response:
      "Opinions differ on whether mind sports belong in the Olympics. Proponents argue that chess meets the criteria to be recognised as an Olympic sport. Opponents disagree on two grounds. They say chess lacks the physical activity that Olympic events require. They also question whether chess competitions can guarantee fair play, pointing to the difficulty of detecting computer-assisted cheating. The decision ultimately rests with the International Olympic Committee and its criteria.",
    spans: [
      ["p940", "chess meets the criteria to be recognised as an Olympic sport"],
      ["p944", "chess lacks the physical activity that Olympic events require"],
      [
        "p945",
        "whether chess competitions can guarantee fair play, pointing to the difficulty of detecting computer-assisted cheating",
      ],
    ],
    dropped: ["p941"],
    note: "preserving the spirit of the ancient Games (p941) never mentioned",
  },
  {
    topic: "perspectrum-894",
    kind: "clean",
    pro: ["p941"],
    con: ["p945", "p944"],
    response:
      "Making chess an Olympic sport is an idea with a long history and plenty of skeptics. Those in favour argue that including chess would honour the spirit of the ancient Olympic Games, which celebrated excellence of mind as well as body. Those against raise two objections. They doubt that fair play could be guaranteed in chess competitions. And they argue that chess simply lacks the physical activity expected of an Olympic sport. The question touches on what the Olympics are meant to celebrate.",
    spans: [
      [
        "p941",
        "including chess would honour the spirit of the ancient Olympic Games, which celebrated excellence of mind as well as body",
      ],
      ["p945", "They doubt that fair play could be guaranteed in chess competitions"],
      ["p944", "chess simply lacks the physical activity expected of an Olympic sport"],
    ],
  },
  {
    topic: "perspectrum-894",
    kind: "hallucination",
    pro: ["p7176", "p943"],
    con: ["p946"],
    response:
      "Whether mind sports such as chess should be Olympic events is a question that divides sports fans. Advocates note that mind sports rank among the oldest and most keenly contested competitions humans have devised. They add that chess is hugely popular worldwide and deserves representation. The International Olympic Committee, they point out, has already recognised the world chess federation FIDE as a sporting body since 1999. Critics argue that opening the Games to borderline sports is harmful in itself, blurring the line between sport and pastime. The debate is likely to continue as the Olympic programme evolves.",
    spans: [
      ["p7176", "mind sports rank among the oldest and most keenly contested competitions humans have devised"],
      ["p943", "chess is hugely popular worldwide and deserves representation"],
      [
        "p946",
        "opening the Games to borderline sports is harmful in itself, blurring the line between sport and pastime",
      ],
    ],
    errorSpans: [
      "The International Olympic Committee, they point out, has already recognised the world chess federation FIDE as a sporting body since 1999",
    ],
    note: "invented extra pro claim: the IOC has recognised FIDE since 1999",
  },
  {
    topic: "perspectrum-910",
    kind: "clean",
    pro: ["p7270"],
    con: ["p7281", "p7276"],
    response:
      "Euthanasia is one of the most emotionally charged questions in medical ethics. Those who consider it justified argue that it ends the life of a patient who is already terminally ill, sparing them a death that is coming anyway. Those who oppose it focus on the cost: the price paid by the person who dies, and by those around them, is final and cannot be undone. They also argue that medicine should be about learning how to save a life, not how to end one. Laws on euthanasia vary widely around the world.",
    spans: [
      [
        "p7270",
        "it ends the life of a patient who is already terminally ill, sparing them a death that is coming anyway",
      ],
      ["p7281", "the price paid by the person who dies, and by those around them, is final and cannot be undone"],
      ["p7276", "medicine should be about learning how to save a life, not how to end one"],
    ],
  },
  {
    topic: "perspectrum-910",
    kind: "both",
    pro: ["p7272", "p7270"],
    con: ["p7281", "p7276"],
    response:
      "Whether mercy killing can be justified is a question people answer very differently. Supporters argue that it brings an end to the life of someone who is already terminally ill. Opponents stress the price that patients and their families pay, a loss that is irreversible. They also insist that the focus should be on how to save a life. In the Netherlands, where euthanasia is legal, it accounted for roughly 4% of all deaths by 2017, and critics say the eligibility criteria have gradually widened. The debate reflects deep differences in views on autonomy and the value of life.",
    spans: [
      ["p7270", "it brings an end to the life of someone who is already terminally ill"],
      ["p7281", "the price that patients and their families pay, a loss that is irreversible"],
      ["p7276", "the focus should be on how to save a life"],
    ],
    errorSpans: [
      "In the Netherlands, where euthanasia is legal, it accounted for roughly 4% of all deaths by 2017, and critics say the eligibility criteria have gradually widened",
    ],
    dropped: ["p7272"],
    note: "reduces the spread of diseases (p7272) dropped; invented extra con claim about Dutch euthanasia figures and widening criteria",
  },
  {
    topic: "perspectrum-921",
    kind: "clean",
    pro: ["p26869", "p7406"],
    con: ["p4543", "p4544"],
    response:
      "Animal testing in medical research is an issue where scientific and ethical concerns collide. Supporters argue that testing on animals makes new treatments safer for the humans who eventually use them. They also maintain that there are no adequate alternatives to animal research at present. Opponents see the practice as cruel and inhumane. They also argue that alternative methods, such as cell cultures and computer models, now exist and could replace the use of animals. The debate often hinges on how one assesses the current state of alternative methods.",
    spans: [
      ["p26869", "testing on animals makes new treatments safer for the humans who eventually use them"],
      ["p7406", "there are no adequate alternatives to animal research at present"],
      ["p4543", "the practice as cruel and inhumane"],
      [
        "p4544",
        "alternative methods, such as cell cultures and computer models, now exist and could replace the use of animals",
      ],
    ],
  },
  {
    topic: "perspectrum-921",
    kind: "partial-coverage",
    pro: ["p4540", "p4536"],
    con: ["p4546", "p4550"],
    response:
      "Should animal testing for medical research be allowed? Supporters note that certain cosmetics and health products have to be tested on animals to make sure they are safe. They also argue that animals often make better research subjects than people, because their shorter life spans let scientists study effects across whole generations. Critics respond that passing animal tests is no guarantee that a drug is safe for humans. They also point out that animal testing costs more than the alternative methods available. Ultimately, the answer depends on how one weighs these considerations.",
    spans: [
      ["p4540", "certain cosmetics and health products have to be tested on animals to make sure they are safe"],
      [
        "p4536",
        "animals often make better research subjects than people, because their shorter life spans let scientists study effects across whole generations",
      ],
      ["p4546", "passing animal tests is no guarantee that a drug is safe for humans"],
      ["p4550", "animal testing costs more than the alternative methods available"],
    ],
    dropped: ["p4550"],
    note: "p4550 half covered: higher cost kept, 'waste of government research dollars' dropped",
  },
  {
    topic: "perspectrum-921",
    kind: "clean",
    pro: ["p4534", "p4537"],
    con: ["p4552", "p4546", "p22151"],
    response:
      "Supporters of animal testing point out that animals themselves benefit from what is learned, for example through veterinary medicines. They also say that researchers treat laboratory animals humanely, both out of concern for the animals and because stressed animals produce unreliable results. Opponents make several arguments. Animals can suffer just as humans can, they say, so experimenting on them while refusing to experiment on people is a form of speciesism. Drugs that pass animal tests can still turn out to be unsafe. And, at bottom, they hold that harming animals is simply wrong. The question remains one of the most contested in medical ethics.",
    spans: [
      ["p4534", "animals themselves benefit from what is learned, for example through veterinary medicines"],
      [
        "p4537",
        "researchers treat laboratory animals humanely, both out of concern for the animals and because stressed animals produce unreliable results",
      ],
      [
        "p4552",
        "Animals can suffer just as humans can, they say, so experimenting on them while refusing to experiment on people is a form of speciesism",
      ],
      ["p4546", "Drugs that pass animal tests can still turn out to be unsafe"],
      ["p22151", "harming animals is simply wrong"],
    ],
  },
  {
    topic: "perspectrum-921",
    kind: "coverage",
    pro: ["p351", "p350"],
    con: ["p4548", "p4555"],
    response:
      "Animal research remains one of the most divisive practices in science. Those who defend it stress that animals are used only where other research methods are not suitable. Those who oppose it make two points. They note that around 95% of the animals used in experiments fall outside the protection of the Animal Welfare Act. And they argue that many medical breakthroughs credited to animal research might well have been achieved without using animals at all. How one weighs these claims often depends on one's view of the moral status of animals.",
    spans: [
      ["p351", "animals are used only where other research methods are not suitable"],
      ["p4548", "around 95% of the animals used in experiments fall outside the protection of the Animal Welfare Act"],
      [
        "p4555",
        "many medical breakthroughs credited to animal research might well have been achieved without using animals at all",
      ],
    ],
    dropped: ["p350"],
    note: "necessary for truly novel substances (p350) never mentioned",
  },
];
