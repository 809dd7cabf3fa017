import type { HandExample } from "./a-types.ts";

/** Batch 1: topics perspectrum-107 to perspectrum-192. */
export const batch1: HandExample[] = [
  {
    topic: "perspectrum-107",
    kind: "clean",
    pro: ["p790", "p791"],
    con: ["p793", "p794"],
    response:
      "Whether sentencing enhancements for hate crimes are fair is contested among legal scholars and civil-liberties groups. Those who call them unjust argue that punishing an offender more heavily because of the views behind an act edges into penalizing opinion, which sits uneasily with the protection of free expression. They also worry that singling out certain groups for special legal protection can breed resentment and deepen friction between communities rather than ease it. Defenders see things differently. In their view, tougher penalties act as a deterrent, making would-be offenders think twice before targeting someone for who they are. They add that the laws send a public signal that a society values tolerance, which can help different communities relate to one another. How one comes down depends largely on how these goals are balanced.",
    spans: [
      [
        "p790",
        "punishing an offender more heavily because of the views behind an act edges into penalizing opinion, which sits uneasily with the protection of free expression",
      ],
      [
        "p791",
        "singling out certain groups for special legal protection can breed resentment and deepen friction between communities rather than ease it",
      ],
      [
        "p793",
        "tougher penalties act as a deterrent, making would-be offenders think twice before targeting someone for who they are",
      ],
      [
        "p794",
        "the laws send a public signal that a society values tolerance, which can help different communities relate to one another",
      ],
    ],
  },
  {
    topic: "perspectrum-107",
    kind: "hallucination",
    pro: ["p790"],
    con: ["p793", "p794"],
    response:
      "There's no simple answer to whether hate crime enhancements are unjust. Critics of the laws say they amount to an assault on free speech: adding years to a sentence because of what an offender believes, they argue, effectively punishes thought. Many defense lawyers add that motive is notoriously hard to prove, so the enhancements end up applied unevenly from one courtroom to the next. Supporters counter that the stiffer penalties discourage people from committing such crimes in the first place. They also believe the laws can reinforce a message of tolerance and strengthen relations between different communities. Ultimately, the question turns on whether one sees these statutes as protecting vulnerable groups or as overreaching.",
    spans: [
      [
        "p790",
        "they amount to an assault on free speech: adding years to a sentence because of what an offender believes, they argue, effectively punishes thought",
      ],
      ["p793", "the stiffer penalties discourage people from committing such crimes in the first place"],
      ["p794", "the laws can reinforce a message of tolerance and strengthen relations between different communities"],
    ],
    errorSpans: [
      "Many defense lawyers add that motive is notoriously hard to prove, so the enhancements end up applied unevenly from one courtroom to the next",
    ],
    note: "invented extra pro claim: motive is hard to prove, so enhancements are applied unevenly",
  },
  {
    topic: "perspectrum-107",
    kind: "coverage",
    pro: ["p790", "p791"],
    con: ["p793"],
    response:
      "Hate crime enhancements are defended and attacked in roughly equal measure. On one side, supporters of these laws argue that harsher sentences for bias-motivated offences help stop such crimes before they happen, because offenders know the stakes are higher. On the other, opponents contend that enhancements are unjust. Their central objection is that the extra punishment attaches to the offender's beliefs rather than the act itself, which they regard as a direct threat to freedom of speech. It is a debate in which both sides claim to be defending basic rights, and where one lands often reflects how much weight one gives to deterrence versus civil liberties.",
    spans: [
      [
        "p793",
        "harsher sentences for bias-motivated offences help stop such crimes before they happen, because offenders know the stakes are higher",
      ],
      [
        "p790",
        "the extra punishment attaches to the offender's beliefs rather than the act itself, which they regard as a direct threat to freedom of speech",
      ],
    ],
    dropped: ["p791"],
    note: "inter-community tensions (p791) never mentioned",
  },
  {
    topic: "perspectrum-107",
    kind: "perspective-confusion",
    pro: ["p790", "p791"],
    con: ["p793", "p794"],
    response:
      "Hate crime enhancements, which add to a sentence when an offence is motivated by prejudice, draw criticism from several directions. Critics say the laws trespass on free speech by punishing the opinions behind a crime as well as the crime itself. Backers of the laws make a few points. Heavier penalties, they say, deter people from committing hate crimes in the first place, and the statutes signal that society values tolerance, helping communities get along. They also acknowledge that the enhancements can heighten tensions between communities, though they see this as a price worth paying. Which view prevails depends on how these effects are weighed.",
    spans: [
      ["p790", "the laws trespass on free speech by punishing the opinions behind a crime as well as the crime itself"],
      ["p793", "Heavier penalties, they say, deter people from committing hate crimes in the first place"],
      ["p794", "the statutes signal that society values tolerance, helping communities get along"],
    ],
    errorSpans: [
      "They also acknowledge that the enhancements can heighten tensions between communities, though they see this as a price worth paying",
    ],
    dropped: ["p791"],
    note: "pro argument p791 (inter-community tensions) attributed to the laws' backers (con side)",
  },
  {
    topic: "perspectrum-116",
    kind: "clean",
    pro: ["p857", "p858"],
    con: ["p860", "p859"],
    response:
      "Sex selection sits at the meeting point of reproductive freedom and medical ethics, and people disagree about where the line should be. Those in favour start from autonomy: decisions about having a family belong to the parents, so they should be free to choose. They also note a medical benefit, since picking the sex of an embryo allows families to avoid passing on genetic illnesses that strike only boys or only girls. Opponents worry about where this leads. Children, they argue, are not products to be built to order, and letting parents pick a trait like sex is a step in that direction. They also object to devoting costly medical treatment to what they see as a trivial preference. Both sides raise real concerns.",
    spans: [
      ["p857", "decisions about having a family belong to the parents, so they should be free to choose"],
      [
        "p858",
        "picking the sex of an embryo allows families to avoid passing on genetic illnesses that strike only boys or only girls",
      ],
      [
        "p860",
        "Children, they argue, are not products to be built to order, and letting parents pick a trait like sex is a step in that direction",
      ],
      ["p859", "devoting costly medical treatment to what they see as a trivial preference"],
    ],
  },
  {
    topic: "perspectrum-116",
    kind: "hallucination",
    pro: ["p855"],
    con: ["p859", "p860"],
    response:
      "Should parents be allowed to pick whether they have a son or a daughter? Advocates make a striking case: in societies where one sex is strongly preferred, allowing parents to choose could reduce the killing of unwanted newborns. Critics are unconvinced. They say fertility clinics would be spending scarce and expensive medical resources on something that is not a health need at all. They also fear a slide toward treating children as items made to specification. Many add that there is value in accepting whatever chance brings at birth, and that this natural lottery should be left alone. As with many questions in reproductive ethics, the answer depends on how one balances individual choice against broader social worries.",
    spans: [
      [
        "p855",
        "in societies where one sex is strongly preferred, allowing parents to choose could reduce the killing of unwanted newborns",
      ],
      [
        "p859",
        "fertility clinics would be spending scarce and expensive medical resources on something that is not a health need at all",
      ],
      ["p860", "a slide toward treating children as items made to specification"],
    ],
    errorSpans: [
      "Many add that there is value in accepting whatever chance brings at birth, and that this natural lottery should be left alone",
    ],
    extra: "p861",
    note: "unused con argument p861 (lottery of childbirth) stated",
  },
  {
    topic: "perspectrum-116",
    kind: "both",
    pro: ["p857", "p858"],
    con: ["p861", "p860"],
    response:
      "Parental choice over a baby's sex is a divisive issue. Supporters frame it as a matter of liberty: it is the parents who will raise the child, and the decision should rest with them. Opponents push back on several fronts. Some hold that the chance element of conception is something we should not tamper with; whether a child is a boy or a girl ought to be left to nature. Others warn that children should never become the subject of design, chosen to a checklist of desirable features. Demographers point to countries such as China and India, where widespread selection has already skewed the ratio of boys to girls at birth. Views tend to follow deeper beliefs about autonomy and the limits of medicine.",
    spans: [
      ["p857", "it is the parents who will raise the child, and the decision should rest with them"],
      [
        "p861",
        "the chance element of conception is something we should not tamper with; whether a child is a boy or a girl ought to be left to nature",
      ],
      ["p860", "children should never become the subject of design, chosen to a checklist of desirable features"],
    ],
    errorSpans: [
      "Demographers point to countries such as China and India, where widespread selection has already skewed the ratio of boys to girls at birth",
    ],
    dropped: ["p858"],
    note: "sex-specific diseases (p858) dropped; invented extra con claim about skewed sex ratios in China and India",
  },
  {
    topic: "perspectrum-116",
    kind: "partial-hallucination",
    pro: ["p855", "p857"],
    con: ["p859"],
    response:
      "Opinions on letting parents choose their child's sex vary widely. Proponents offer two main reasons. First, they argue that sex selection would wipe out infanticide altogether, since parents who can choose would no longer be driven to abandon or kill baby girls. Second, they believe that family planning is a personal matter and parents should have the right to decide. Opponents, by contrast, question the use of medical resources: pre-selecting sex requires expensive procedures, and they consider it wasteful to spend them on a preference rather than a medical need. The debate ultimately reflects different views of what reproductive technology is for.",
    spans: [
      [
        "p855",
        "sex selection would wipe out infanticide altogether, since parents who can choose would no longer be driven to abandon or kill baby girls",
      ],
      ["p857", "family planning is a personal matter and parents should have the right to decide"],
      [
        "p859",
        "pre-selecting sex requires expensive procedures, and they consider it wasteful to spend them on a preference rather than a medical need",
      ],
    ],
    errorSpans: ["would wipe out infanticide altogether"],
    note: "p855 shifted: 'prevent incidents of infanticide' -> 'wipe out infanticide altogether'",
  },
  {
    topic: "perspectrum-142",
    kind: "clean",
    pro: ["p1046", "p1047"],
    con: ["p1050", "p1049"],
    response:
      "Making every lecture, handbook and paper freely available sounds appealing, but it raises real trade-offs. Advocates point out that most universities run on public money, so the public has a fair claim to see what that money produces. They add that open access speeds up research and feeds innovation that benefits the wider economy. On the other side, some argue that universities have earned the right to make money from the work they produce. They also warn that giving everything away could scare off private sponsors and partners, cutting into an important source of income. How these considerations balance out may depend on the type of institution and material involved.",
    spans: [
      [
        "p1046",
        "most universities run on public money, so the public has a fair claim to see what that money produces",
      ],
      ["p1047", "open access speeds up research and feeds innovation that benefits the wider economy"],
      ["p1049", "universities have earned the right to make money from the work they produce"],
      [
        "p1050",
        "giving everything away could scare off private sponsors and partners, cutting into an important source of income",
      ],
    ],
  },
  {
    topic: "perspectrum-142",
    kind: "coverage",
    pro: ["p1048", "p1045"],
    con: ["p1051", "p1049"],
    response:
      "Whether universities should put all their academic output online is a question that splits educators. Supporters think it would widen access to learning for anyone with an internet connection, not just enrolled students. It would also let students at one institution draw on lectures and course materials produced at others, broadening what they can study. Sceptics, however, fear that if lectures and materials are freely available, fewer people will see a reason to enrol and pay for a degree. In the end, the question is how to share knowledge widely without undermining the institutions that create it.",
    spans: [
      ["p1045", "it would widen access to learning for anyone with an internet connection, not just enrolled students"],
      [
        "p1048",
        "let students at one institution draw on lectures and course materials produced at others, broadening what they can study",
      ],
      [
        "p1051",
        "if lectures and materials are freely available, fewer people will see a reason to enrol and pay for a degree",
      ],
    ],
    dropped: ["p1049"],
    note: "universities deserve to profit (p1049) never mentioned",
  },
  {
    topic: "perspectrum-142",
    kind: "repetition",
    repeated: "p1047",
    pro: ["p1047"],
    con: ["p1051", "p1050"],
    response:
      "There's no single right answer here. People who favour open publication argue that sharing research freely helps science move faster and gives the economy a boost, as businesses and innovators can build on university findings. Critics see two problems. One is that free access to courses and lectures might weaken the reason to attend university at all. The other is financial: if everything is given away, universities may find it harder to attract money from private backers who expect some exclusivity. Supporters reply that openness ultimately pays off, because research that anyone can read spreads further and drives economic growth. Much depends on how universities adapt their funding models.",
    spans: [
      [
        "p1047",
        "sharing research freely helps science move faster and gives the economy a boost, as businesses and innovators can build on university findings",
      ],
      ["p1051", "free access to courses and lectures might weaken the reason to attend university at all"],
      [
        "p1050",
        "if everything is given away, universities may find it harder to attract money from private backers who expect some exclusivity",
      ],
    ],
    errorSpans: [
      "openness ultimately pays off, because research that anyone can read spreads further and drives economic growth",
    ],
    note: "p1047 (openness benefits research and the economy) stated a second time at the end",
  },
  {
    topic: "perspectrum-160",
    kind: "clean",
    pro: ["p1182", "p1186"],
    con: ["p1189", "p1187"],
    response:
      "The place of creationism in science classes has been argued over in courts and school boards for decades. Proponents say there is a genuine dispute about how life began and developed, and pupils ought to be exposed to both sides of it. They also believe local communities should help decide what their schools teach, and point out that many of them want creationism included. Opponents answer that creationism has no empirical support, while the evidence consistently backs evolution and abiogenesis. They add that the overwhelming majority of scientists reject creationism as a scientific account. The disagreement ultimately reflects different views about the purpose of science education and who gets to shape it.",
    spans: [
      [
        "p1182",
        "there is a genuine dispute about how life began and developed, and pupils ought to be exposed to both sides of it",
      ],
      [
        "p1186",
        "local communities should help decide what their schools teach, and point out that many of them want creationism included",
      ],
      [
        "p1189",
        "creationism has no empirical support, while the evidence consistently backs evolution and abiogenesis",
      ],
      ["p1187", "the overwhelming majority of scientists reject creationism as a scientific account"],
    ],
  },
  {
    topic: "perspectrum-160",
    kind: "hallucination",
    pro: ["p1185", "p3892"],
    con: ["p1188", "p1189"],
    response:
      "Whether creationism must be taught in schools is a question that divides parents, teachers and scientists. Those in favour claim creationism stands on equal footing with evolution as a scientific theory and therefore deserves the same classroom time. They also argue that presenting both accounts lets students weigh them and make up their own minds. Critics respond that schools exist to teach facts and truth, not religious dogma or faith. In their view, creationism also lacks any empirical evidence, whereas every line of evidence supports evolution. Nor, they say, should individual teachers be free to present whatever they personally believe as established fact. The issue remains heated wherever science standards are revised.",
    spans: [
      [
        "p1185",
        "creationism stands on equal footing with evolution as a scientific theory and therefore deserves the same classroom time",
      ],
      ["p3892", "presenting both accounts lets students weigh them and make up their own minds"],
      ["p1188", "schools exist to teach facts and truth, not religious dogma or faith"],
      ["p1189", "creationism also lacks any empirical evidence, whereas every line of evidence supports evolution"],
    ],
    errorSpans: [
      "Nor, they say, should individual teachers be free to present whatever they personally believe as established fact",
    ],
    extra: "p3894",
    note: "unused con argument p3894 (teachers should not teach whatever they wish as fact) stated",
  },
  {
    topic: "perspectrum-160",
    kind: "coverage",
    pro: ["p1184", "p3891"],
    con: ["p1187", "p1188"],
    response:
      "Opinions differ sharply on this. Advocates of teaching creationism argue that evolution leaves much of life's complexity unexplained, whereas creationism, they say, accounts for it fully. Critics see things differently. They stress that the scientific community, by an overwhelming margin, rejects creationism. And they argue that the classroom is for truth and verifiable fact, not for dogma or matters of faith. Ultimately, the dispute turns on what counts as science and what role schools should play in teaching it.",
    spans: [
      [
        "p1184",
        "evolution leaves much of life's complexity unexplained, whereas creationism, they say, accounts for it fully",
      ],
      ["p1187", "the scientific community, by an overwhelming margin, rejects creationism"],
      ["p1188", "the classroom is for truth and verifiable fact, not for dogma or matters of faith"],
    ],
    dropped: ["p3891"],
    note: "teachers' freedom of speech (p3891) never mentioned",
  },
  {
    topic: "perspectrum-17",
    kind: "clean",
    pro: ["p121", "p1046"],
    con: ["p124"],
    response:
      "A presumption in favour of publication would mean public bodies release their information unless there is a strong reason not to. Supporters argue this protects people who often have no voice in government, such as non-citizens, children and foreign nationals, by guaranteeing them access to information that affects their lives. They also point to universities: since most are publicly funded, they say, they should be required to share their materials openly. Opponents raise a practical concern. Governments produce enormous volumes of data, and forcing them to publish all of it could backfire, burying citizens under so much information that the useful parts get lost. Where the balance lies depends on how transparency is weighed against usability.",
    spans: [
      [
        "p121",
        "this protects people who often have no voice in government, such as non-citizens, children and foreign nationals, by guaranteeing them access to information that affects their lives",
      ],
      ["p1046", "since most are publicly funded, they say, they should be required to share their materials openly"],
      [
        "p124",
        "Governments produce enormous volumes of data, and forcing them to publish all of it could backfire, burying citizens under so much information that the useful parts get lost",
      ],
    ],
  },
  {
    topic: "perspectrum-17",
    kind: "both",
    pro: ["p121", "p1047"],
    con: ["p124", "p1049"],
    response:
      "Should information held by public bodies be published by default? Advocates say yes, because a duty to publish ensures that people outside the electorate, like minors, non-citizens and foreign nationals, can still see information that concerns them. Critics, though, think full publication would be self-defeating: governments generate so much data that citizens would be overwhelmed rather than informed. Some also argue that institutions such as universities have a right to profit from the work they produce. Others warn that making everything free to access would undermine universities' ability to raise private funding. The debate comes down to how much openness is practical.",
    spans: [
      [
        "p121",
        "a duty to publish ensures that people outside the electorate, like minors, non-citizens and foreign nationals, can still see information that concerns them",
      ],
      [
        "p124",
        "full publication would be self-defeating: governments generate so much data that citizens would be overwhelmed rather than informed",
      ],
      ["p1049", "institutions such as universities have a right to profit from the work they produce"],
    ],
    errorSpans: [
      "Others warn that making everything free to access would undermine universities' ability to raise private funding",
    ],
    extra: "p1050",
    dropped: ["p1047"],
    note: "openness benefits research/economy (p1047) dropped; unused con argument p1050 (private funding) stated",
  },
  {
    topic: "perspectrum-180",
    kind: "clean",
    pro: ["p1336", "p1337"],
    con: ["p1343", "p1345"],
    response:
      "There's a lively debate over whether online learning should take the place of traditional universities. Fans of online courses stress flexibility: students can study when and where it suits them, which is far easier to fit around jobs and family than a campus timetable. They also argue that online delivery opens higher education to people who could never attend in person, widening access. Defenders of the traditional model highlight what would be lost. Face-to-face discussion with lecturers and classmates is hard to replicate through a screen. And for many young people, going away to university is a rite of passage, a first step toward living independently. The right balance may lie somewhere between the two.",
    spans: [
      [
        "p1336",
        "students can study when and where it suits them, which is far easier to fit around jobs and family than a campus timetable",
      ],
      ["p1337", "online delivery opens higher education to people who could never attend in person, widening access"],
      ["p1343", "Face-to-face discussion with lecturers and classmates is hard to replicate through a screen"],
      ["p1345", "going away to university is a rite of passage, a first step toward living independently"],
    ],
  },
  {
    topic: "perspectrum-180",
    kind: "hallucination",
    pro: ["p1339"],
    con: ["p1341", "p1344"],
    response:
      "Supporters say moving courses online would free universities to put more of their money and staff time into teaching and research rather than buildings. A 2019 Harvard study, they add, found that students in online courses scored as well on final exams as those taught in lecture halls. Opponents doubt the economics, arguing that the financial model behind online courses cannot be sustained. They also worry about the social side of university: clubs, societies and campus life would wither if everyone studied from home. How these trade-offs play out will likely vary by subject and student.",
    spans: [
      [
        "p1339",
        "moving courses online would free universities to put more of their money and staff time into teaching and research rather than buildings",
      ],
      ["p1341", "the financial model behind online courses cannot be sustained"],
      [
        "p1344",
        "the social side of university: clubs, societies and campus life would wither if everyone studied from home",
      ],
    ],
    errorSpans: [
      "A 2019 Harvard study, they add, found that students in online courses scored as well on final exams as those taught in lecture halls",
    ],
    note: "invented extra pro claim: a 2019 Harvard study on online exam scores",
  },
  {
    topic: "perspectrum-180",
    kind: "partial-coverage",
    pro: ["p1338", "p1337"],
    con: ["p1343"],
    response:
      "Whether online courses should replace traditional universities is a question educators are still debating. Advocates believe online learning offers a path to greater academic excellence. They also say it broadens access to education for people who live far from a campus or cannot afford to relocate. Critics are less enthusiastic. Their chief complaint is that studying online cuts students off from real-time conversation with their professors. For now, many institutions are experimenting with blended approaches rather than choosing one model outright, and the evidence on outcomes is still accumulating.",
    spans: [
      ["p1338", "online learning offers a path to greater academic excellence"],
      ["p1337", "it broadens access to education for people who live far from a campus or cannot afford to relocate"],
      ["p1343", "studying online cuts students off from real-time conversation with their professors"],
    ],
    dropped: ["p1343"],
    note: "p1343 only half covered: lost contact with professors kept, lost contact with other students dropped",
  },
  {
    topic: "perspectrum-192",
    kind: "clean",
    pro: ["p1426", "p1424"],
    con: ["p1427", "p1428"],
    response:
      "Open source procurement is a recurring policy question for public administrations. Proponents of favouring open source argue that public adoption can reset what counts as the industry standard. They also say open code can be tailored more easily to the specific needs of government departments. Critics have two main worries. The first is cost: although open source software looks cheaper up front, they argue it ends up more expensive for governments over time. The second is security, since they believe relying on openly available code could put national security at risk. Ultimately, it depends on how governments weigh flexibility and influence against cost and risk.",
    spans: [
      ["p1426", "public adoption can reset what counts as the industry standard"],
      ["p1424", "open code can be tailored more easily to the specific needs of government departments"],
      [
        "p1427",
        "although open source software looks cheaper up front, they argue it ends up more expensive for governments over time",
      ],
      ["p1428", "relying on openly available code could put national security at risk"],
    ],
  },
];
