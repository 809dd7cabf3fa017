import type { HandExample } from "./a-types.ts";

/** Batch 4: topics perspectrum-514 to perspectrum-638 (the last tune topics). */
export const batch4: HandExample[] = [
  {
    topic: "perspectrum-514",
    kind: "clean",
    pro: ["p3802", "p3804"],
    con: ["p3383", "p3808"],
    response:
      "Mandatory sex education is debated in many countries, often intensely. Supporters argue that it works like a vaccine: teaching young people the facts protects them against sexually transmitted infections and helps prevent unplanned pregnancies. They also point out that not every parent can be relied on to cover the subject adequately at home. Opponents worry that classroom sex education prompts teenagers to experiment and start having sex earlier, indirectly encouraging promiscuity. Some also believe that sexuality is something young people discover gradually, not something that can be taught effectively in a lesson. Ultimately, the answer depends on how one weighs these concerns.",
    spans: [
      [
        "p3802",
        "it works like a vaccine: teaching young people the facts protects them against sexually transmitted infections and helps prevent unplanned pregnancies",
      ],
      ["p3804", "not every parent can be relied on to cover the subject adequately at home"],
      [
        "p3383",
        "classroom sex education prompts teenagers to experiment and start having sex earlier, indirectly encouraging promiscuity",
      ],
      [
        "p3808",
        "sexuality is something young people discover gradually, not something that can be taught effectively in a lesson",
      ],
    ],
  },
  {
    topic: "perspectrum-514",
    kind: "hallucination",
    pro: ["p3805", "p3382"],
    con: ["p3807", "p3386"],
    response:
      "Whether sex education should be compulsory is a question on which parents, teachers and religious groups often disagree. Supporters argue that even religious and conservative communities stand to gain from it. They also see a contradiction in withholding information from children who are approaching the age of consent. In the internet era, they add, trying to keep young people away from information about sex is futile anyway. Opponents contend that sex education harms the wider education system, taking time and focus away from core subjects. They further argue that teaching it to children below the age of consent undermines the law. Views often track broader beliefs about the role of schools.",
    spans: [
      ["p3805", "even religious and conservative communities stand to gain from it"],
      ["p3382", "a contradiction in withholding information from children who are approaching the age of consent"],
      ["p3807", "sex education harms the wider education system, taking time and focus away from core subjects"],
      ["p3386", "teaching it to children below the age of consent undermines the law"],
    ],
    errorSpans: [
      "In the internet era, they add, trying to keep young people away from information about sex is futile anyway",
    ],
    extra: "p3381",
    note: "unused pro argument p3381 (the information age makes hiding information impossible) stated",
  },
  {
    topic: "perspectrum-514",
    kind: "coverage",
    pro: ["p3802", "p3381"],
    con: ["p3383", "p3386"],
    response:
      "Sex education is one of the most argued-over parts of the school curriculum. On one side, advocates say it gives young people a kind of immunity, guarding them against sexually transmitted diseases and reducing unwanted pregnancies. On the other side, critics fear that it has the opposite effect, encouraging early sexual activity and experimentation and, indirectly, promiscuity. They also argue that teaching sex education to children who are under the age of consent sits uneasily with the law itself. How schools handle the subject often depends on local culture and politics.",
    spans: [
      [
        "p3802",
        "it gives young people a kind of immunity, guarding them against sexually transmitted diseases and reducing unwanted pregnancies",
      ],
      [
        "p3383",
        "it has the opposite effect, encouraging early sexual activity and experimentation and, indirectly, promiscuity",
      ],
      [
        "p3386",
        "teaching sex education to children who are under the age of consent sits uneasily with the law itself",
      ],
    ],
    dropped: ["p3381"],
    note: "the information age makes hiding information impossible (p3381) never mentioned",
  },
  {
    topic: "perspectrum-514",
    kind: "partial-coverage",
    pro: ["p3802", "p3804"],
    con: ["p3807"],
    response:
      "There's no simple answer to whether sex education should be mandatory. Those in favour believe it protects young people from sexually transmitted diseases by making sure they know how infections spread and how to avoid them. They also note that parents cannot always be counted on to provide enough sex education themselves. Those against argue that adding sex education to the curriculum does damage to the education system as a whole. Many schools end up with a compromise, offering the subject while giving parents some say over how it is taught.",
    spans: [
      [
        "p3802",
        "it protects young people from sexually transmitted diseases by making sure they know how infections spread and how to avoid them",
      ],
      ["p3804", "parents cannot always be counted on to provide enough sex education themselves"],
      ["p3807", "adding sex education to the curriculum does damage to the education system as a whole"],
    ],
    dropped: ["p3802"],
    note: "p3802 half covered: protection against STDs kept, prevention of unwanted pregnancy dropped",
  },
  {
    topic: "perspectrum-527",
    kind: "clean",
    pro: ["p3891", "p3893"],
    con: ["p3897", "p3894"],
    response:
      "Tennessee's law protecting teachers who discuss the merits of creationism drew national attention. Its defenders argue that teachers are entitled to free speech just like everyone else. They also stress that the law does not remove evolution from the curriculum; it simply makes room for other theories to be discussed. Critics respond that creationism is not science, so it should not fall under a law about science teaching at all. They also argue that teachers should not be free to present whatever they personally believe as fact. The controversy reflects a longer national argument over science education.",
    spans: [
      ["p3891", "teachers are entitled to free speech just like everyone else"],
      [
        "p3893",
        "the law does not remove evolution from the curriculum; it simply makes room for other theories to be discussed",
      ],
      ["p3897", "creationism is not science, so it should not fall under a law about science teaching at all"],
      ["p3894", "teachers should not be free to present whatever they personally believe as fact"],
    ],
  },
  {
    topic: "perspectrum-527",
    kind: "both",
    pro: ["p3892", "p3891"],
    con: ["p3897", "p1187"],
    response:
      "Is Tennessee right to shield teachers who explore creationism? Supporters say that teaching creationism alongside evolution lets students decide for themselves which account they find convincing. Critics make several points. Creationism, they argue, is not a science and therefore has no business being covered by a law about science classes. They note that the scientific community as a whole overwhelmingly rejects it. And they stress that there is no empirical evidence for creationism, while the evidence for evolution keeps accumulating. Whether the law is a victory for academic freedom or a setback for science education depends on whom you ask.",
    spans: [
      [
        "p3892",
        "teaching creationism alongside evolution lets students decide for themselves which account they find convincing",
      ],
      [
        "p3897",
        "Creationism, they argue, is not a science and therefore has no business being covered by a law about science classes",
      ],
      ["p1187", "the scientific community as a whole overwhelmingly rejects it"],
    ],
    errorSpans: ["there is no empirical evidence for creationism, while the evidence for evolution keeps accumulating"],
    extra: "p1189",
    dropped: ["p3891"],
    note: "teachers' free speech (p3891) dropped; unused con argument p1189 (no empirical evidence) stated",
  },
  {
    topic: "perspectrum-527",
    kind: "clean",
    pro: ["p3893", "p1186"],
    con: ["p3894", "p1188"],
    response:
      "The Tennessee measure has supporters and detractors with very different views of what schools are for. Supporters emphasize that the bill leaves evolution in place and merely allows other theories into the discussion. They also believe communities deserve a voice in what local schools teach, and they point out that many communities want creationism to be part of it. Detractors say teachers should not have licence to teach anything they like as if it were established fact. In their view, education should rest on truth and evidence rather than on dogma and faith. The debate is likely to continue as other states consider similar laws.",
    spans: [
      ["p3893", "the bill leaves evolution in place and merely allows other theories into the discussion"],
      [
        "p1186",
        "communities deserve a voice in what local schools teach, and they point out that many communities want creationism to be part of it",
      ],
      ["p3894", "teachers should not have licence to teach anything they like as if it were established fact"],
      ["p1188", "education should rest on truth and evidence rather than on dogma and faith"],
    ],
  },
  {
    topic: "perspectrum-527",
    kind: "repetition",
    repeated: "p3897",
    pro: ["p3891"],
    con: ["p3897", "p1187"],
    response:
      "Opinions on Tennessee's creationism law are sharply divided. Those who back it argue that freedom of speech should protect teachers in the same way it protects any other citizen. Those who oppose it start from the nature of creationism: because it is not science, they argue, it should not even fall within the scope of the Tennessee law. They add that the overwhelming majority of scientists reject creationism. A law about science teaching, they insist, is simply the wrong place for a belief that is not scientific. The dispute mirrors older battles over evolution in American classrooms.",
    spans: [
      ["p3891", "freedom of speech should protect teachers in the same way it protects any other citizen"],
      ["p3897", "because it is not science, they argue, it should not even fall within the scope of the Tennessee law"],
      ["p1187", "the overwhelming majority of scientists reject creationism"],
    ],
    errorSpans: [
      "A law about science teaching, they insist, is simply the wrong place for a belief that is not scientific",
    ],
    note: "p3897 (creationism is not science, so not covered by the law) stated a second time",
  },
  {
    topic: "perspectrum-544",
    kind: "clean",
    pro: ["p4002", "p4003"],
    con: ["p4007", "p4006"],
    response:
      "Merit pay for teachers sounds simple in principle but is hard to get right in practice. Supporters argue that it is only fair to pay teachers according to the results they actually deliver. They also believe it would motivate teachers to keep improving their teaching. Critics worry that tying pay to results would tempt some teachers to game the system, for example by teaching to the test or manipulating scores. They also say it would be unfair to judge teachers on outcomes that depend on factors beyond their control, such as pupils' home lives. The design of any scheme would be crucial.",
    spans: [
      ["p4002", "it is only fair to pay teachers according to the results they actually deliver"],
      ["p4003", "it would motivate teachers to keep improving their teaching"],
      [
        "p4007",
        "tying pay to results would tempt some teachers to game the system, for example by teaching to the test or manipulating scores",
      ],
      [
        "p4006",
        "it would be unfair to judge teachers on outcomes that depend on factors beyond their control, such as pupils' home lives",
      ],
    ],
  },
  {
    topic: "perspectrum-544",
    kind: "hallucination",
    pro: ["p4003", "p4004"],
    con: ["p4006"],
    response:
      "Should state school teachers be paid on merit? Proponents say that linking pay to performance gives teachers a reason to get better at their jobs. They also expect it to draw more people into teaching, as talented graduates would see a path to higher earnings. Opponents argue that it is unjust to reward or penalize teachers for results they cannot control. They also cite a three-year experiment in Nashville, where bonuses of up to $15,000 produced no measurable improvement in students' test scores. Whether merit pay can work likely depends on how performance is measured.",
    spans: [
      ["p4003", "linking pay to performance gives teachers a reason to get better at their jobs"],
      ["p4004", "draw more people into teaching, as talented graduates would see a path to higher earnings"],
      ["p4006", "it is unjust to reward or penalize teachers for results they cannot control"],
    ],
    errorSpans: [
      "They also cite a three-year experiment in Nashville, where bonuses of up to $15,000 produced no measurable improvement in students' test scores",
    ],
    note: "invented extra con claim: a Nashville experiment with $15,000 bonuses showed no effect",
  },
  {
    topic: "perspectrum-544",
    kind: "coverage",
    pro: ["p4004", "p4002"],
    con: ["p4008", "p4007"],
    response:
      "Performance-related pay for teachers is a perennial topic in education policy, and opinions differ. Its backers argue that it would help recruit more teachers into the profession. They also consider it only fair that teachers be rewarded for the real results they achieve with their classes. Opponents are skeptical. They fear that once pay depends on measurable results, some teachers will find ways to cheat the system rather than genuinely improving. Ultimately, whether merit pay helps or harms depends on what is measured and how.",
    spans: [
      ["p4004", "it would help recruit more teachers into the profession"],
      ["p4002", "it only fair that teachers be rewarded for the real results they achieve with their classes"],
      [
        "p4007",
        "once pay depends on measurable results, some teachers will find ways to cheat the system rather than genuinely improving",
      ],
    ],
    dropped: ["p4008"],
    note: "uncritical 'learning drone' students (p4008) never mentioned",
  },
  {
    topic: "perspectrum-544",
    kind: "clean",
    pro: ["p4004"],
    con: ["p4008", "p4006"],
    response:
      "There's a real debate about paying state school teachers based on merit. Advocates believe the prospect of being rewarded for good work would attract more people to the profession. Critics have two main objections. First, they warn that teachers chasing measurable targets would produce students who learn to repeat answers without thinking critically, a generation of 'learning drones'. Second, they consider it unfair to reward teachers for results that are largely outside their influence. The answer may depend on whether performance can be measured in a way that is both fair and meaningful.",
    spans: [
      ["p4004", "the prospect of being rewarded for good work would attract more people to the profession"],
      [
        "p4008",
        "teachers chasing measurable targets would produce students who learn to repeat answers without thinking critically, a generation of 'learning drones'",
      ],
      ["p4006", "it unfair to reward teachers for results that are largely outside their influence"],
    ],
  },
  {
    topic: "perspectrum-636",
    kind: "clean",
    pro: ["p5287", "p5284"],
    con: ["p5290", "p5291"],
    response:
      "How schools should deal with persistent bullies is a difficult question. Those who favour expulsion argue that talking to bullies is not enough: without real consequences, they will not change their behaviour. They also stress the harm bullies do to the students around them. Those against expulsion point out that bullying comes in many forms and degrees, and a single harsh penalty does not fit them all. They also warn that expelling a child can make that child's behaviour worse rather than better. Most schools try to balance protecting victims with helping bullies change.",
    spans: [
      ["p5287", "talking to bullies is not enough: without real consequences, they will not change their behaviour"],
      ["p5284", "the harm bullies do to the students around them"],
      ["p5290", "bullying comes in many forms and degrees, and a single harsh penalty does not fit them all"],
      ["p5291", "expelling a child can make that child's behaviour worse rather than better"],
    ],
  },
  {
    topic: "perspectrum-636",
    kind: "coverage",
    pro: ["p5287", "p5284"],
    con: ["p5290", "p5291"],
    response:
      "Opinions differ on whether persistent bullies should be expelled. Supporters of expulsion focus on the victims: a persistent bully harms the children around them, and removing the bully protects everyone else. Opponents make two points. Not all bullying is equally serious, they note, and responses should be matched to the severity of the behaviour. They also argue that expulsion tends to make a troubled child worse, cutting them off from the support they may need. Schools handle the question in different ways.",
    spans: [
      ["p5284", "a persistent bully harms the children around them, and removing the bully protects everyone else"],
      [
        "p5290",
        "Not all bullying is equally serious, they note, and responses should be matched to the severity of the behaviour",
      ],
      ["p5291", "expulsion tends to make a troubled child worse, cutting them off from the support they may need"],
    ],
    dropped: ["p5287"],
    note: "talking is not enough, bullies need actions (p5287) never mentioned",
  },
  {
    topic: "perspectrum-636",
    kind: "hallucination",
    pro: ["p5284"],
    con: ["p5290", "p5291"],
    response:
      "Expelling persistent bullies is a step some schools take and others avoid. Advocates say that bullies damage the wellbeing and safety of the other children around them, which justifies removing them. Critics counter that bullying varies widely in kind and severity, so a blanket policy of expulsion is too blunt. They also argue that kicking a child out of school may only make them worse. On top of that, expulsion simply moves the problem to another school, where the bully can find new targets. Schools often look for measures that protect victims without giving up on the bully.",
    spans: [
      ["p5284", "bullies damage the wellbeing and safety of the other children around them"],
      ["p5290", "bullying varies widely in kind and severity, so a blanket policy of expulsion is too blunt"],
      ["p5291", "kicking a child out of school may only make them worse"],
    ],
    errorSpans: ["expulsion simply moves the problem to another school, where the bully can find new targets"],
    note: "invented extra con claim: expulsion moves the bully to another school with new targets",
  },
  {
    topic: "perspectrum-636",
    kind: "partial-hallucination",
    pro: ["p5287", "p5284"],
    con: ["p5291"],
    response:
      "Whether to expel persistent bullies is something parents and teachers often disagree about. Those in favour believe conversations alone will not get through to a bully; only firm action will. They also point to the harm that bullies cause to the children around them. Those against expulsion argue that it inevitably pushes a child toward a life of crime, turning a school problem into a lifelong one. Ultimately, the right response probably depends on the individual case and the support available.",
    spans: [
      ["p5287", "conversations alone will not get through to a bully; only firm action will"],
      ["p5284", "the harm that bullies cause to the children around them"],
      ["p5291", "it inevitably pushes a child toward a life of crime, turning a school problem into a lifelong one"],
    ],
    errorSpans: ["it inevitably pushes a child toward a life of crime"],
    note: "p5291 shifted: 'will make them worse' -> 'inevitably pushes a child toward a life of crime'",
  },
  {
    topic: "perspectrum-638",
    kind: "clean",
    pro: ["p5307", "p5315"],
    con: ["p5316", "p5321"],
    response:
      "Cell phones in schools are a common source of disagreement between parents, students and teachers. Those who want them allowed say students need a phone for emergencies. They also argue that, when used properly, phones can actually reduce disruptions in class, for instance by replacing trips to the office. Those who want them banned say phones distract students from their lessons. They also warn that phones make it easy to cheat on tests. Many schools settle on rules that allow phones but limit when they can be used.",
    spans: [
      ["p5307", "students need a phone for emergencies"],
      [
        "p5315",
        "when used properly, phones can actually reduce disruptions in class, for instance by replacing trips to the office",
      ],
      ["p5316", "phones distract students from their lessons"],
      ["p5321", "phones make it easy to cheat on tests"],
    ],
  },
  {
    topic: "perspectrum-638",
    kind: "both",
    pro: ["p5309", "p5315"],
    con: ["p5317", "p5319"],
    response:
      "Should cell phones be allowed in schools? Supporters say emergencies can happen at any time and that whether to carry a phone should be the student's own choice. Opponents raise several concerns. Phones with cameras, they note, have been used to harass and humiliate other students. They also argue that students don't need their own phones, since the school already has telephones they can use. And phones can make cheating on tests easier, for example by letting students look up answers or share photos of exam papers. Schools differ widely in the policies they adopt.",
    spans: [
      [
        "p5309",
        "emergencies can happen at any time and that whether to carry a phone should be the student's own choice",
      ],
      ["p5317", "Phones with cameras, they note, have been used to harass and humiliate other students"],
      ["p5319", "students don't need their own phones, since the school already has telephones they can use"],
    ],
    errorSpans: [
      "phones can make cheating on tests easier, for example by letting students look up answers or share photos of exam papers",
    ],
    extra: "p5321",
    dropped: ["p5315"],
    note: "fewer interruptions if used correctly (p5315) dropped; unused con argument p5321 (cheating on tests) stated",
  },
  {
    topic: "perspectrum-638",
    kind: "clean",
    pro: ["p5309"],
    con: ["p5319", "p5317"],
    response:
      "There are reasonable points on both sides of the school phone debate. Supporters of allowing phones argue that emergencies do happen and that carrying a phone is a personal choice students should be free to make. Opponents reply that schools already have phones, so students can use those when they genuinely need to call someone. They also point out that phones with cameras are sometimes used to harass other students, for example by taking and sharing photos without consent. The policy that works best may depend on the age of the students.",
    spans: [
      ["p5309", "emergencies do happen and that carrying a phone is a personal choice students should be free to make"],
      ["p5319", "schools already have phones, so students can use those when they genuinely need to call someone"],
      [
        "p5317",
        "phones with cameras are sometimes used to harass other students, for example by taking and sharing photos without consent",
      ],
    ],
  },
  {
    topic: "perspectrum-638",
    kind: "perspective-confusion",
    pro: ["p5307", "p5315"],
    con: ["p5316", "p5321"],
    response:
      "Whether students should be allowed to have cell phones at school is hotly debated. Supporters argue that phones should be allowed so that students can be reached, or call for help, in an emergency. Opponents have a longer list of concerns. Phones, they say, distract students from learning, and they can be used to cheat on tests. They also point out that phones only reduce interruptions if they are used correctly, which in their view cannot be relied upon. Ultimately, the answer depends on how schools weigh safety against focus.",
    spans: [
      ["p5307", "phones should be allowed so that students can be reached, or call for help, in an emergency"],
      ["p5316", "Phones, they say, distract students from learning"],
      ["p5321", "they can be used to cheat on tests"],
    ],
    errorSpans: [
      "phones only reduce interruptions if they are used correctly, which in their view cannot be relied upon",
    ],
    dropped: ["p5315"],
    note: "pro argument p5315 (used correctly, phones diminish interruptions) presented as an opponents' caveat",
  },
];
