import type { HandExample } from "./a-types.ts";

/** Batch 8: a second pass over tune and held-out topics (more examples per topic). */
export const batch8: HandExample[] = [
  {
    topic: "perspectrum-17",
    kind: "clean",
    pro: ["p1045", "p121"],
    con: ["p124", "p1050"],
    response:
      "Publishing by default is a question of transparency, but also of practicality. Advocates argue that it would open up education, putting knowledge held by public institutions within everyone's reach. They also say that a legal duty to publish guarantees that people such as minors, non-citizens and foreign nationals can see the information that affects them. Opponents make two objections. Public bodies generate so much data that requiring them to release all of it would be counterproductive, leaving citizens swamped. And if universities had to give everything away for free, they argue, it would become harder for them to attract private funding.",
    spans: [
      ["p1045", "it would open up education, putting knowledge held by public institutions within everyone's reach"],
      [
        "p121",
        "a legal duty to publish guarantees that people such as minors, non-citizens and foreign nationals can see the information that affects them",
      ],
      [
        "p124",
        "Public bodies generate so much data that requiring them to release all of it would be counterproductive, leaving citizens swamped",
      ],
      [
        "p1050",
        "if universities had to give everything away for free, they argue, it would become harder for them to attract private funding",
      ],
    ],
  },
  {
    topic: "perspectrum-17",
    kind: "coverage",
    pro: ["p1046", "p1048"],
    con: ["p124", "p1049"],
    response:
      "There are good arguments on both sides of this question. Those in favour of a presumption of publication often start with universities: because most of them are funded by the taxpayer, they say, their materials should be open to the public that pays for them. Those against raise two concerns. One is scale, since governments hold such vast quantities of data that publishing everything would bury citizens rather than inform them. The other is ownership: universities, in their view, have a right to profit from the work they create. The balance struck differs from one country to another.",
    spans: [
      [
        "p1046",
        "because most of them are funded by the taxpayer, they say, their materials should be open to the public that pays for them",
      ],
      [
        "p124",
        "governments hold such vast quantities of data that publishing everything would bury citizens rather than inform them",
      ],
      ["p1049", "universities, in their view, have a right to profit from the work they create"],
    ],
    dropped: ["p1048"],
    note: "students using resources at other universities (p1048) never mentioned",
  },
  {
    topic: "perspectrum-142",
    kind: "hallucination",
    pro: ["p1046", "p1048"],
    con: ["p1051"],
    response:
      "Should universities publish everything they produce? Supporters argue that since most universities receive public money, they have an obligation to be open with their materials. They add that students would benefit from being able to draw on lectures and resources from other universities, not just their own. More broadly, open access would throw education open to anyone who wants to learn, whatever their background or location. Critics counter that if all the content were freely available, people would have less reason to actually enrol at a university. Each institution has to find its own balance.",
    spans: [
      [
        "p1046",
        "since most universities receive public money, they have an obligation to be open with their materials",
      ],
      [
        "p1048",
        "students would benefit from being able to draw on lectures and resources from other universities, not just their own",
      ],
      [
        "p1051",
        "if all the content were freely available, people would have less reason to actually enrol at a university",
      ],
    ],
    errorSpans: [
      "open access would throw education open to anyone who wants to learn, whatever their background or location",
    ],
    extra: "p1045",
    note: "unused pro argument p1045 (opens up education) stated",
  },
  {
    topic: "perspectrum-160",
    kind: "clean",
    pro: ["p3893", "p1185"],
    con: ["p1188", "p3894"],
    response:
      "Whether creationism should be taught in schools is a long-running and often bitter dispute. Supporters of teaching it note that the legislation in question does not push evolution out of the classroom; it merely allows other theories to be discussed too. They also claim that creationism is just as valid a scientific theory as evolution and abiogenesis, and so deserves equal time. Opponents insist that education should be grounded in truth and facts rather than dogma and faith. They also argue that teachers should not be free to present whatever they happen to believe as fact. How one sees the issue often depends on one's view of science itself.",
    spans: [
      [
        "p3893",
        "the legislation in question does not push evolution out of the classroom; it merely allows other theories to be discussed too",
      ],
      [
        "p1185",
        "creationism is just as valid a scientific theory as evolution and abiogenesis, and so deserves equal time",
      ],
      ["p1188", "education should be grounded in truth and facts rather than dogma and faith"],
      ["p3894", "teachers should not be free to present whatever they happen to believe as fact"],
    ],
  },
  {
    topic: "perspectrum-180",
    kind: "both",
    pro: ["p1336", "p1339"],
    con: ["p1345", "p1341"],
    response:
      "Could online learning replace the traditional university? Advocates emphasise convenience: online courses let students learn at their own pace and from anywhere, which suits many better than a fixed campus schedule. Skeptics raise several concerns. Leaving home for university, they argue, is an important rite of passage into independent adult life. They doubt that the business model of online courses can be sustained financially. And they point out that learning through a screen cuts students off from live exchanges with their teachers and fellow students. For now, most universities combine online and in-person teaching.",
    spans: [
      [
        "p1336",
        "online courses let students learn at their own pace and from anywhere, which suits many better than a fixed campus schedule",
      ],
      ["p1345", "Leaving home for university, they argue, is an important rite of passage into independent adult life"],
      ["p1341", "the business model of online courses can be sustained financially"],
    ],
    errorSpans: [
      "learning through a screen cuts students off from live exchanges with their teachers and fellow students",
    ],
    extra: "p1343",
    dropped: ["p1339"],
    note: "more resources for teaching and research (p1339) dropped; unused con argument p1343 (no live communication) stated",
  },
  {
    topic: "perspectrum-192",
    kind: "partial-hallucination",
    pro: ["p1424", "p1425"],
    con: ["p1427"],
    response:
      "There's a case for and against governments favouring open source software. Supporters say that open source can be adapted more readily to the particular needs of government. They also believe that the sheer size of government contracts means public choices can reshape the software industry for the better. Critics respond with a cost argument: in their view, open source software costs governments more from the very first day, despite its reputation for being cheap. The right decision probably depends on the project in question.",
    spans: [
      ["p1424", "open source can be adapted more readily to the particular needs of government"],
      [
        "p1425",
        "the sheer size of government contracts means public choices can reshape the software industry for the better",
      ],
      [
        "p1427",
        "open source software costs governments more from the very first day, despite its reputation for being cheap",
      ],
    ],
    errorSpans: ["open source software costs governments more from the very first day"],
    note: "p1427 shifted: 'more expensive in the long run' -> 'costs more from the very first day'",
  },
  {
    topic: "perspectrum-25",
    kind: "clean",
    pro: ["p183", "p187"],
    con: ["p190", "p191"],
    response:
      "Defenders of the Church's position offer two main reasons. They warn that abandoning a long-held teaching would be a radical change that could threaten the stability of the Church itself. And they believe the rule serves believers' ultimate good by keeping them from eternal punishment in Hell. Critics raise equally serious points. Condoms and other barrier methods can protect wives from contracting HIV from infected husbands. The prohibition, they add, makes the Church appear uncaring and obstinate. Where one stands usually depends on whether one approaches the issue from inside or outside the faith.",
    spans: [
      [
        "p183",
        "abandoning a long-held teaching would be a radical change that could threaten the stability of the Church itself",
      ],
      ["p187", "the rule serves believers' ultimate good by keeping them from eternal punishment in Hell"],
      ["p190", "Condoms and other barrier methods can protect wives from contracting HIV from infected husbands"],
      ["p191", "The prohibition, they add, makes the Church appear uncaring and obstinate"],
    ],
  },
  {
    topic: "perspectrum-374",
    kind: "clean",
    pro: ["p2781"],
    con: ["p2785", "p2784"],
    response:
      "Restrictions on crime reporting would have to balance protection against openness. Those in favour argue that the state has a duty to protect everyone caught up in a violent crime: the victims, their families, and the people accused of it. Those opposed see the press as a watchdog, arguing that journalists' reporting and investigations keep the behaviour of the justice system in check. They also believe that a responsible media has a duty, and a free-speech right, to tell the truth about what happened. Different legal systems draw this line in different places.",
    spans: [
      [
        "p2781",
        "the state has a duty to protect everyone caught up in a violent crime: the victims, their families, and the people accused of it",
      ],
      ["p2785", "journalists' reporting and investigations keep the behaviour of the justice system in check"],
      ["p2784", "a responsible media has a duty, and a free-speech right, to tell the truth about what happened"],
    ],
  },
  {
    topic: "perspectrum-457",
    kind: "coverage",
    pro: ["p3407", "p3408"],
    con: ["p3409", "p3411"],
    response:
      "Universal school breakfast has both enthusiasts and doubters. Enthusiasts see it as a teaching opportunity: serving a good breakfast every day shows children what a healthy meal looks like and helps them learn about health. Doubters argue that making sure children are properly fed is a job for parents, not for schools. They also warn that providing breakfast for every pupil would add considerably to schools' costs. Whether it is worth it depends on local circumstances.",
    spans: [
      [
        "p3408",
        "serving a good breakfast every day shows children what a healthy meal looks like and helps them learn about health",
      ],
      ["p3409", "making sure children are properly fed is a job for parents, not for schools"],
      ["p3411", "providing breakfast for every pupil would add considerably to schools' costs"],
    ],
    dropped: ["p3407"],
    note: "breakfast improves concentration (p3407) never mentioned",
  },
  {
    topic: "perspectrum-311",
    kind: "hallucination",
    pro: ["p4577", "p4572"],
    con: ["p4606", "p4610"],
    response:
      "A universal switch to vegetarianism is a big ask, and the arguments cut both ways. Supporters highlight health: a vegetarian diet is linked to a lower risk of heart disease, and a well-planned one provides all the nutrients people need while offering further health benefits. They also cite the World Health Organization, whose cancer agency classifies processed meat as a cause of bowel cancer. Critics respond that lean red meat, eaten in moderation, can be part of a healthy, balanced diet. They add that people can shrink their environmental footprint without giving up meat entirely. Individual choices vary widely.",
    spans: [
      ["p4577", "a vegetarian diet is linked to a lower risk of heart disease"],
      ["p4572", "a well-planned one provides all the nutrients people need while offering further health benefits"],
      ["p4606", "lean red meat, eaten in moderation, can be part of a healthy, balanced diet"],
      ["p4610", "people can shrink their environmental footprint without giving up meat entirely"],
    ],
    errorSpans: [
      "They also cite the World Health Organization, whose cancer agency classifies processed meat as a cause of bowel cancer",
    ],
    note: "invented extra pro claim: the WHO cancer agency classifies processed meat as carcinogenic",
  },
  {
    topic: "perspectrum-469",
    kind: "clean",
    pro: ["p6443", "p3489"],
    con: ["p3492", "p3493"],
    response:
      "A ban on junk food in schools is easy to propose and harder to judge. Those in favour believe that taking junk food out of schools could lower the rate of heart disease in the long run. They also argue that well-nourished pupils perform better as students. Those against point out that many schools rely on the money they make from selling snacks and fizzy drinks. They also expect that pupils would bring unhealthy food in from outside, undermining the ban. Each side's case depends partly on evidence that is still being gathered.",
    spans: [
      ["p6443", "taking junk food out of schools could lower the rate of heart disease in the long run"],
      ["p3489", "well-nourished pupils perform better as students"],
      ["p3492", "many schools rely on the money they make from selling snacks and fizzy drinks"],
      ["p3493", "pupils would bring unhealthy food in from outside, undermining the ban"],
    ],
  },
  {
    topic: "perspectrum-49",
    kind: "coverage",
    pro: ["p363"],
    con: ["p366", "p7532"],
    response:
      "Should history be removed from the classroom? Those who think so warn that governments can use history lessons for propaganda, presenting a distorted account of past events that serves the state. Those who disagree argue that history is central to how children come to understand themselves and their nation, which is why it should be taught in school. Where one stands depends on what one thinks history lessons are for.",
    spans: [
      [
        "p363",
        "governments can use history lessons for propaganda, presenting a distorted account of past events that serves the state",
      ],
      [
        "p366",
        "history is central to how children come to understand themselves and their nation, which is why it should be taught in school",
      ],
    ],
    dropped: ["p7532"],
    note: "history is something people need to know (p7532) never mentioned",
  },
  {
    topic: "perspectrum-771",
    kind: "clean",
    pro: ["p7454"],
    con: ["p6309"],
    response:
      "Whether a state needs high taxes to function well is a question economists and voters answer in very different ways. Those who say it does see taxation as the main tool for redistributing wealth, narrowing the gap between the highest and lowest incomes. Those who say it does not argue that raising taxes mainly encourages people and businesses to avoid them, so higher rates do not deliver what they promise. The disagreement often reflects different views of what an effective state should do in the first place.",
    spans: [
      [
        "p7454",
        "taxation as the main tool for redistributing wealth, narrowing the gap between the highest and lowest incomes",
      ],
      [
        "p6309",
        "raising taxes mainly encourages people and businesses to avoid them, so higher rates do not deliver what they promise",
      ],
    ],
  },
  {
    topic: "perspectrum-835",
    kind: "both",
    pro: ["p6736", "p6739"],
    con: ["p6745"],
    response:
      "Claims that CO2 does not cause global warming still circulate, and it helps to see what each side says. Those who make these claims argue that there is no scientifically valid mechanism by which CO2 could cause warming. They also point out that the Earth's temperature has always gone up and down, whatever was happening to CO2 levels. On the other side, many scientists are convinced that CO2 does drive warming. It is worth comparing the evidence each side offers before drawing a conclusion.",
    spans: [
      ["p6736", "there is no scientifically valid mechanism by which CO2 could cause warming"],
      ["p6745", "many scientists are convinced that CO2 does drive warming"],
    ],
    errorSpans: ["the Earth's temperature has always gone up and down, whatever was happening to CO2 levels"],
    extra: "p6737",
    dropped: ["p6739"],
    note: "CO2 does not hold in heat (p6739) dropped; unused pro argument p6737 (temperatures always changing) stated",
  },
  {
    topic: "perspectrum-844",
    kind: "hallucination",
    pro: ["p6842"],
    con: ["p6847", "p6844"],
    response:
      "Should hitting children as a punishment be against the law? Supporters of a ban argue that the harm it causes is serious enough on its own to justify prohibition. They note that more than sixty countries, beginning with Sweden in 1979, have already outlawed all corporal punishment of children. Opponents point out that several religious traditions support some form of physical discipline. They also maintain that physical chastisement is justified when it is used to correct a child's behaviour. The issue touches on the limits of state involvement in family life.",
    spans: [
      ["p6842", "the harm it causes is serious enough on its own to justify prohibition"],
      ["p6847", "several religious traditions support some form of physical discipline"],
      ["p6844", "physical chastisement is justified when it is used to correct a child's behaviour"],
    ],
    errorSpans: [
      "They note that more than sixty countries, beginning with Sweden in 1979, have already outlawed all corporal punishment of children",
    ],
    note: "invented extra pro claim: more than sixty countries, starting with Sweden in 1979, ban corporal punishment",
  },
  {
    topic: "perspectrum-910",
    kind: "clean",
    pro: ["p7272", "p7270"],
    con: ["p7276"],
    response:
      "Euthanasia raises questions about the value of life, the duties of doctors and the rights of patients. Supporters sometimes argue that it can reduce the spread of disease, since a contagious patient who is dying would no longer pass the illness on. They also say it simply ends the life of someone who is already terminally ill. Opponents answer that the task of medicine is to work out how to save a life, not to end it. The question remains one of the most sensitive in medical ethics.",
    spans: [
      [
        "p7272",
        "it can reduce the spread of disease, since a contagious patient who is dying would no longer pass the illness on",
      ],
      ["p7270", "it simply ends the life of someone who is already terminally ill"],
      ["p7276", "the task of medicine is to work out how to save a life, not to end it"],
    ],
  },
  {
    topic: "perspectrum-921",
    kind: "hallucination",
    pro: ["p4541", "p1370"],
    con: ["p4543", "p347"],
    response:
      "Opinions on animal testing for medical research are deeply divided. Some defenders of the practice appeal to religion, noting that many religious traditions grant humans dominion over animals. They also argue that animals do not have human rights, so the moral rules that protect people do not apply to them in the same way. Opponents describe animal testing as cruel and inhumane. They add that ending it would send a positive message to society and strengthen animal welfare more generally. Besides, they argue, alternative testing methods already exist that could make the use of animals unnecessary.",
    spans: [
      ["p4541", "many religious traditions grant humans dominion over animals"],
      [
        "p1370",
        "animals do not have human rights, so the moral rules that protect people do not apply to them in the same way",
      ],
      ["p4543", "animal testing as cruel and inhumane"],
      ["p347", "ending it would send a positive message to society and strengthen animal welfare more generally"],
    ],
    errorSpans: [
      "Besides, they argue, alternative testing methods already exist that could make the use of animals unnecessary",
    ],
    extra: "p4544",
    note: "unused con argument p4544 (alternative testing methods exist) stated",
  },
  {
    topic: "perspectrum-641",
    kind: "clean",
    pro: ["p4765", "p4767"],
    con: ["p4777", "p4774"],
    response:
      "Mandatory school uniforms are supported by many and resented by some. Supporters point out that uniforms take the guesswork out of getting dressed in the morning, which can help students arrive on time. They also note that most parents and educators back mandatory uniforms. Opponents counter that students themselves are against them. They also argue that uniforms make no difference to attendance, how prepared students are to learn, or exam results. Schools weighing a uniform policy often consult families before deciding.",
    spans: [
      [
        "p4765",
        "uniforms take the guesswork out of getting dressed in the morning, which can help students arrive on time",
      ],
      ["p4767", "most parents and educators back mandatory uniforms"],
      ["p4777", "students themselves are against them"],
      ["p4774", "uniforms make no difference to attendance, how prepared students are to learn, or exam results"],
    ],
  },
  {
    topic: "perspectrum-73",
    kind: "partial-coverage",
    pro: ["p547", "p545"],
    con: ["p5453"],
    response:
      "Using positive discrimination to get more women into parliament is a hotly debated measure. Its advocates argue that parliament ought to be representative of the society it governs, and that this means a substantial increase in the number of women MPs. They also stress that visible female role models are urgently needed, both to raise young women's aspirations and to change the way parliament operates. Its critics fear that the policy would create resentment between men and women. The debate continues in many legislatures.",
    spans: [
      [
        "p547",
        "parliament ought to be representative of the society it governs, and that this means a substantial increase in the number of women MPs",
      ],
      [
        "p545",
        "visible female role models are urgently needed, both to raise young women's aspirations and to change the way parliament operates",
      ],
      ["p5453", "the policy would create resentment between men and women"],
    ],
    dropped: ["p547"],
    note: "p547 only partly covered: representativeness and more women kept, 'which only positive discrimination can achieve' dropped",
  },
  {
    topic: "perspectrum-838",
    kind: "coverage",
    pro: ["p6825", "p6826"],
    con: ["p6831", "p6829"],
    response:
      "Would legalising prostitution protect sex workers from HIV/AIDS? Those in favour argue that legalisation would stop the trade from being pushed underground, where workers are harder to reach and protect. Those against raise two concerns. Legal prostitution, they warn, could be advertised openly, even on television, normalising it for everyone. And they fear that legalising prostitution would lead to the same approach being taken towards drugs. The question mixes public health with deeper moral disagreements.",
    spans: [
      [
        "p6825",
        "legalisation would stop the trade from being pushed underground, where workers are harder to reach and protect",
      ],
      [
        "p6831",
        "Legal prostitution, they warn, could be advertised openly, even on television, normalising it for everyone",
      ],
      ["p6829", "legalising prostitution would lead to the same approach being taken towards drugs"],
    ],
    dropped: ["p6826"],
    note: "prostitution prevents some sex crime (p6826) never mentioned",
  },
];
