import type { HandExample } from "./a-types.ts";

/** Batch 5: held-out topics perspectrum-641 to perspectrum-73. */
export const batch5: HandExample[] = [
  {
    topic: "perspectrum-641",
    kind: "clean",
    pro: ["p4759", "p4766"],
    con: ["p4781", "p4776"],
    response:
      "School uniforms are a long-running source of debate between parents, schools and students. Advocates say uniforms help pupils concentrate on learning rather than on what they or their classmates are wearing. They also argue that uniforms are cheaper for families than keeping up with fashion. Opponents believe parents should be able to decide how their children dress, free from government rules. They also contend that uniforms end up highlighting the very differences in wealth they are meant to hide, since better-off families can still buy better-quality versions and accessories. The evidence on both sides is mixed.",
    spans: [
      [
        "p4759",
        "uniforms help pupils concentrate on learning rather than on what they or their classmates are wearing",
      ],
      ["p4766", "uniforms are cheaper for families than keeping up with fashion"],
      ["p4781", "parents should be able to decide how their children dress, free from government rules"],
      [
        "p4776",
        "uniforms end up highlighting the very differences in wealth they are meant to hide, since better-off families can still buy better-quality versions and accessories",
      ],
    ],
  },
  {
    topic: "perspectrum-641",
    kind: "hallucination",
    pro: ["p5339", "p4762"],
    con: ["p4778", "p4774"],
    response:
      "Supporters of mandatory uniforms say that when everyone wears the same clothes, students feel more equal. They add that uniforms may help improve attendance and classroom discipline. Surveys also suggest that most parents and teachers are in favour of making uniforms compulsory. Critics point to potential downsides for students' self-esteem, arguing that being forced into identical clothing can harm how young people see themselves. They also argue that the data do not show uniforms improving attendance, readiness to learn or exam results. Whether uniforms help may depend on the school and how the policy is introduced.",
    spans: [
      ["p5339", "when everyone wears the same clothes, students feel more equal"],
      ["p4762", "uniforms may help improve attendance and classroom discipline"],
      ["p4778", "being forced into identical clothing can harm how young people see themselves"],
      ["p4774", "the data do not show uniforms improving attendance, readiness to learn or exam results"],
    ],
    errorSpans: ["Surveys also suggest that most parents and teachers are in favour of making uniforms compulsory"],
    extra: "p4767",
    note: "unused pro argument p4767 (most parents and educators support uniforms) stated",
  },
  {
    topic: "perspectrum-641",
    kind: "coverage",
    pro: ["p4758", "p4764", "p4765"],
    con: ["p4770", "p4777"],
    response:
      "Should school uniforms be mandatory? Proponents often frame it as a safety issue. Uniforms, they argue, can discourage crime and make schools safer, partly because outsiders are easier to spot. They also stop students from wearing gang colours or symbols. Opponents see less need for compulsion. Students, they say, can still express their individuality within a uniform through small variations and accessories. They also note that students themselves are largely against uniforms. Schools that adopt uniforms usually try to address these concerns through consultation.",
    spans: [
      [
        "p4758",
        "Uniforms, they argue, can discourage crime and make schools safer, partly because outsiders are easier to spot",
      ],
      ["p4764", "They also stop students from wearing gang colours or symbols"],
      [
        "p4770",
        "Students, they say, can still express their individuality within a uniform through small variations and accessories",
      ],
      ["p4777", "students themselves are largely against uniforms"],
    ],
    dropped: ["p4765"],
    note: "easier getting ready and punctuality (p4765) never mentioned",
  },
  {
    topic: "perspectrum-641",
    kind: "clean",
    pro: ["p4760", "p4763"],
    con: ["p4782", "p4773", "p4780"],
    response:
      "Mandatory uniforms have committed defenders and critics. Defenders argue that uniforms level the playing field, easing the peer pressure and bullying that can follow differences in clothing. They also note that a uniform is simpler to enforce than a general dress code, which frees up time that would otherwise be lost in class. Critics raise three objections. In state schools, they say, requiring uniforms adds a cost for families that runs against the idea of free education. They dispute the claim that uniforms prevent bullying, arguing that they may even lead to more violent incidents. And they suspect that much of the enthusiasm for uniforms comes from companies that profit from selling them rather than from educators.",
    spans: [
      [
        "p4760",
        "uniforms level the playing field, easing the peer pressure and bullying that can follow differences in clothing",
      ],
      [
        "p4763",
        "a uniform is simpler to enforce than a general dress code, which frees up time that would otherwise be lost in class",
      ],
      [
        "p4782",
        "In state schools, they say, requiring uniforms adds a cost for families that runs against the idea of free education",
      ],
      [
        "p4773",
        "They dispute the claim that uniforms prevent bullying, arguing that they may even lead to more violent incidents",
      ],
      [
        "p4780",
        "much of the enthusiasm for uniforms comes from companies that profit from selling them rather than from educators",
      ],
    ],
  },
  {
    topic: "perspectrum-641",
    kind: "both",
    pro: ["p4769", "p4768"],
    con: ["p4783", "p4779"],
    response:
      "Uniform policies provoke strong feelings among families. Supporters argue that students in uniform are viewed more favourably by both teachers and classmates. They also insist that a uniform requirement does not take away students' legal right to free expression. Critics worry that the debate over uniforms distracts from real solutions to the problems schools face. Some critics also note that uniform rules are often enforced more strictly against girls, whose skirt lengths and hairstyles attract far more scrutiny than boys' clothing. The decision is usually left to individual schools or districts.",
    spans: [
      ["p4769", "students in uniform are viewed more favourably by both teachers and classmates"],
      ["p4768", "a uniform requirement does not take away students' legal right to free expression"],
      ["p4779", "the debate over uniforms distracts from real solutions to the problems schools face"],
    ],
    errorSpans: [
      "Some critics also note that uniform rules are often enforced more strictly against girls, whose skirt lengths and hairstyles attract far more scrutiny than boys' clothing",
    ],
    dropped: ["p4783"],
    note: "delayed transition into adulthood (p4783) dropped; invented extra con claim about uneven enforcement against girls",
  },
  {
    topic: "perspectrum-641",
    kind: "partial-hallucination",
    pro: ["p4762", "p4759"],
    con: ["p4775"],
    response:
      "Mandatory uniforms remain a contested policy. Those in favour argue that uniforms guarantee better attendance and discipline, so schools that adopt them can count on fewer absences and behaviour problems. They also say uniforms keep students' attention on their studies instead of on clothes. Those against question the research behind these claims, arguing that the key studies cited in favour of uniforms are unreliable. Reasonable people continue to disagree.",
    spans: [
      [
        "p4762",
        "uniforms guarantee better attendance and discipline, so schools that adopt them can count on fewer absences and behaviour problems",
      ],
      ["p4759", "uniforms keep students' attention on their studies instead of on clothes"],
      ["p4775", "the key studies cited in favour of uniforms are unreliable"],
    ],
    errorSpans: ["uniforms guarantee better attendance and discipline"],
    note: "p4762 shifted: 'may improve attendance and discipline' -> 'guarantee better attendance and discipline'",
  },
  {
    topic: "perspectrum-664",
    kind: "clean",
    pro: ["p5521", "p5520"],
    con: ["p5517", "p5516"],
    response:
      "Whether the military should recruit in schools is a question that pits practical needs against concerns about young people. Supporters note that the armed forces need a steady supply of new recruits, and schools are a natural place to find them. They also argue that a military career is a legitimate option that students deserve to hear about, like any other profession. Opponents argue that school-age children are too young to make such a serious decision on their own. They add that young people are easily swayed, which makes recruiting them in school ethically questionable. Many schools try to strike a balance by regulating how recruiters operate.",
    spans: [
      ["p5521", "the armed forces need a steady supply of new recruits, and schools are a natural place to find them"],
      [
        "p5520",
        "a military career is a legitimate option that students deserve to hear about, like any other profession",
      ],
      ["p5517", "school-age children are too young to make such a serious decision on their own"],
      ["p5516", "young people are easily swayed, which makes recruiting them in school ethically questionable"],
    ],
  },
  {
    topic: "perspectrum-664",
    kind: "coverage",
    pro: ["p5520"],
    con: ["p5518", "p5515"],
    response:
      "Military recruiting in schools divides opinion. Supporters see the armed forces as a respectable career path, and believe students should be able to learn about it at school just as they learn about other careers. Opponents are wary of the military's motives. In their view, the armed forces are interested in schools for one reason only: the opportunity to sign up students. How the question is answered often depends on one's view of the military itself.",
    spans: [
      [
        "p5520",
        "the armed forces as a respectable career path, and believe students should be able to learn about it at school just as they learn about other careers",
      ],
      ["p5515", "the armed forces are interested in schools for one reason only: the opportunity to sign up students"],
    ],
    dropped: ["p5518"],
    note: "the armed forces are less than honest (p5518) never mentioned",
  },
  {
    topic: "perspectrum-664",
    kind: "hallucination",
    pro: ["p5521", "p5520"],
    con: ["p5515"],
    response:
      "Opinions differ on allowing military recruiters into schools. On one side, people point out that the armed forces depend on a constant flow of recruits to function. They also see military service as a legitimate career choice that deserves a place alongside other options presented to students. On the other side, critics argue that the military's interest in schools is purely about recruiting students, not about education. They also object that, under American law, schools must hand over students' names and phone numbers to recruiters unless parents opt out. Ultimately, the question is how to balance these considerations.",
    spans: [
      ["p5521", "the armed forces depend on a constant flow of recruits to function"],
      [
        "p5520",
        "military service as a legitimate career choice that deserves a place alongside other options presented to students",
      ],
      ["p5515", "the military's interest in schools is purely about recruiting students, not about education"],
    ],
    errorSpans: [
      "They also object that, under American law, schools must hand over students' names and phone numbers to recruiters unless parents opt out",
    ],
    note: "invented extra con claim: US law makes schools hand student contact details to recruiters",
  },
  {
    topic: "perspectrum-664",
    kind: "clean",
    pro: ["p5520"],
    con: ["p5518", "p5517"],
    response:
      "There's a genuine debate about military recruiting in schools. Those who support it argue that the armed forces offer a perfectly legitimate career, and students should be able to consider it. Critics have two main reservations. They believe military recruiters are not always honest with students about what service involves. They also think children are simply too young to make such a decision for themselves. Most policies try to respect both concerns, for example by limiting recruiters' access or requiring parental consent.",
    spans: [
      ["p5520", "the armed forces offer a perfectly legitimate career, and students should be able to consider it"],
      ["p5518", "military recruiters are not always honest with students about what service involves"],
      ["p5517", "children are simply too young to make such a decision for themselves"],
    ],
  },
  {
    topic: "perspectrum-722",
    kind: "clean",
    pro: ["p5989", "p5988"],
    con: ["p5994", "p5992"],
    response:
      "Raising tuition fees is always controversial, and the arguments on each side are fairly clear. Supporters argue that higher fees are a modest cost compared with the value of the education students receive. They also say that the extra money would flow into the economy and help it recover from recession. Opponents warn that higher fees would put people off going to university at all. They also fear that raising fees would widen the gap between rich and poor and sharpen tensions between them. The decision ultimately rests on how these economic and social effects are weighed.",
    spans: [
      ["p5989", "higher fees are a modest cost compared with the value of the education students receive"],
      ["p5988", "the extra money would flow into the economy and help it recover from recession"],
      ["p5994", "higher fees would put people off going to university at all"],
      ["p5992", "raising fees would widen the gap between rich and poor and sharpen tensions between them"],
    ],
  },
  {
    topic: "perspectrum-722",
    kind: "both",
    pro: ["p5989", "p5988"],
    con: ["p5995", "p5996"],
    response:
      "Should tuition fees go up? Those in favour argue that, given the quality of teaching and facilities students get, the price is a small one to pay. Those against make several points. Fees were raised only a few years ago, they note, so another increase would come too soon. Higher fees would also deter many young people from pursuing a degree in the first place. And students, in their view, are already suffering enough from the recession without being asked to pay more. The issue is likely to resurface whenever university budgets come under pressure.",
    spans: [
      ["p5989", "given the quality of teaching and facilities students get, the price is a small one to pay"],
      ["p5995", "Fees were raised only a few years ago, they note, so another increase would come too soon"],
      [
        "p5996",
        "students, in their view, are already suffering enough from the recession without being asked to pay more",
      ],
    ],
    errorSpans: ["Higher fees would also deter many young people from pursuing a degree in the first place"],
    extra: "p5994",
    dropped: ["p5988"],
    note: "money pumped into the economy (p5988) dropped; unused con argument p5994 (discourages higher education) stated",
  },
  {
    topic: "perspectrum-722",
    kind: "clean",
    pro: ["p5989"],
    con: ["p5995", "p5996", "p5992"],
    response:
      "Increasing tuition fees divides students, universities and policymakers. Supporters believe the price is modest given the quality of the education on offer. Opponents list several objections. Fees went up only a few years ago, they point out. The recession, they argue, is already placing heavy pressure on students. And a further rise would deepen the divide between wealthy and poorer families, adding to social tension. Whether an increase is justified depends on how one balances university finances against affordability.",
    spans: [
      ["p5989", "the price is modest given the quality of the education on offer"],
      ["p5995", "Fees went up only a few years ago"],
      ["p5996", "The recession, they argue, is already placing heavy pressure on students"],
      ["p5992", "a further rise would deepen the divide between wealthy and poorer families, adding to social tension"],
    ],
  },
  {
    topic: "perspectrum-722",
    kind: "repetition",
    repeated: "p5994",
    pro: ["p5988"],
    con: ["p5994", "p5992"],
    response:
      "The question of higher tuition fees has no easy answer. Those who favour an increase argue that more money would be injected into the economy, helping the country climb out of recession. Those who oppose it warn that higher fees will discourage people from seeking a university education. They also believe an increase would heighten tensions and widen the gap between the rich and the poor. Many, they stress, would simply decide that a degree is no longer worth the cost and skip university altogether. How one weighs these effects shapes one's answer.",
    spans: [
      ["p5988", "more money would be injected into the economy, helping the country climb out of recession"],
      ["p5994", "higher fees will discourage people from seeking a university education"],
      ["p5992", "an increase would heighten tensions and widen the gap between the rich and the poor"],
    ],
    errorSpans: [
      "Many, they stress, would simply decide that a degree is no longer worth the cost and skip university altogether",
    ],
    note: "p5994 (discourages higher education) stated a second time",
  },
  {
    topic: "perspectrum-73",
    kind: "clean",
    pro: ["p547", "p545"],
    con: ["p548", "p5453"],
    response:
      "Positive discrimination to increase the number of women in parliament is a divisive policy. Supporters argue that parliament should reflect the society it serves, and that achieving this requires a large rise in the number of women, which they believe only positive discrimination can deliver. They also say that female role models are urgently needed to inspire young women and to change how parliament works. Opponents object that all-women shortlists and quotas limit voters' freedom to choose their representative. They also fear that such measures would breed resentment between men and women. The debate reflects different ideas of fairness and representation.",
    spans: [
      [
        "p547",
        "parliament should reflect the society it serves, and that achieving this requires a large rise in the number of women, which they believe only positive discrimination can deliver",
      ],
      ["p545", "female role models are urgently needed to inspire young women and to change how parliament works"],
      ["p548", "all-women shortlists and quotas limit voters' freedom to choose their representative"],
      ["p5453", "such measures would breed resentment between men and women"],
    ],
  },
  {
    topic: "perspectrum-73",
    kind: "hallucination",
    pro: ["p547"],
    con: ["p5454", "p954"],
    response:
      "Should positive discrimination be used to bring more women into parliament? Proponents argue that a representative parliament needs many more women, and that only positive discrimination can bring about such a substantial increase. They note that until about twenty years ago, women had never made up more than 5% of MPs in the UK, and they remain badly underrepresented in legislatures worldwide. Critics counter that quotas treat the symptom rather than the cause, leaving the deeper reasons for underrepresentation untouched. They also warn that positive discrimination could simply replace one inequality with another. The debate continues in many democracies.",
    spans: [
      [
        "p547",
        "a representative parliament needs many more women, and that only positive discrimination can bring about such a substantial increase",
      ],
      [
        "p5454",
        "quotas treat the symptom rather than the cause, leaving the deeper reasons for underrepresentation untouched",
      ],
      ["p954", "positive discrimination could simply replace one inequality with another"],
    ],
    errorSpans: [
      "They note that until about twenty years ago, women had never made up more than 5% of MPs in the UK, and they remain badly underrepresented in legislatures worldwide",
    ],
    extra: "p551",
    note: "unused pro argument p551 (women underrepresented; 5% of UK MPs) stated",
  },
  {
    topic: "perspectrum-73",
    kind: "coverage",
    pro: ["p545", "p551"],
    con: ["p5455", "p5453", "p5454"],
    response:
      "Quotas and all-women shortlists remain controversial. Advocates stress the need for visible female role models who can raise young women's ambitions and reform parliamentary culture. They also cite the numbers: women are heavily underrepresented in legislatures around the world, and until two decades ago never held more than 5% of seats in the UK Parliament. Critics argue that positive discrimination would create resentment between the sexes. They add that it fails to tackle the underlying causes of the imbalance. Whether quotas are a necessary step or a misguided one remains contested.",
    spans: [
      [
        "p545",
        "the need for visible female role models who can raise young women's ambitions and reform parliamentary culture",
      ],
      [
        "p551",
        "women are heavily underrepresented in legislatures around the world, and until two decades ago never held more than 5% of seats in the UK Parliament",
      ],
      ["p5453", "positive discrimination would create resentment between the sexes"],
      ["p5454", "it fails to tackle the underlying causes of the imbalance"],
    ],
    dropped: ["p5455"],
    note: "men, not women, are disadvantaged (p5455) never mentioned",
  },
  {
    topic: "perspectrum-73",
    kind: "clean",
    pro: ["p551", "p545"],
    con: ["p954", "p5454"],
    response:
      "The use of positive discrimination in politics raises questions about fairness on both sides. Supporters point out that women remain vastly outnumbered in parliaments worldwide; in the UK, they had never exceeded 5% of MPs until around twenty years ago. They argue that women in parliament also serve as role models, lifting the aspirations of young women and changing parliamentary habits. Opponents worry that positive discrimination may just swap one form of inequality for another. They also say it leaves the root causes of women's underrepresentation unaddressed. How one weighs these points shapes one's answer.",
    spans: [
      [
        "p551",
        "women remain vastly outnumbered in parliaments worldwide; in the UK, they had never exceeded 5% of MPs until around twenty years ago",
      ],
      [
        "p545",
        "women in parliament also serve as role models, lifting the aspirations of young women and changing parliamentary habits",
      ],
      ["p954", "positive discrimination may just swap one form of inequality for another"],
      ["p5454", "it leaves the root causes of women's underrepresentation unaddressed"],
    ],
  },
];
