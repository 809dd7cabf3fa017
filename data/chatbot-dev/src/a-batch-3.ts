import type { HandExample } from "./a-types.ts";

/** Batch 3: topics perspectrum-463 to perspectrum-508. */
export const batch3: HandExample[] = [
  {
    topic: "perspectrum-463",
    kind: "clean",
    pro: ["p3447", "p3449"],
    con: ["p3451", "p3452"],
    response:
      "Banning trans fats is one of the more concrete debates about the state's role in what we eat. Supporters argue that these fats are harmful in a way few other ingredients are, with no safe level of consumption. Because of that, they believe the government is justified in outlawing them to protect public health. Opponents accept that consumers deserve better information, but they think the state's job is to inform people, not to take choices away from them. They also argue that a ban would be economically costly, forcing manufacturers to reformulate products and raising prices. The debate reflects a broader disagreement about paternalism in food policy.",
    spans: [
      ["p3447", "these fats are harmful in a way few other ingredients are, with no safe level of consumption"],
      ["p3449", "the government is justified in outlawing them to protect public health"],
      ["p3451", "the state's job is to inform people, not to take choices away from them"],
      ["p3452", "a ban would be economically costly, forcing manufacturers to reformulate products and raising prices"],
    ],
  },
  {
    topic: "perspectrum-463",
    kind: "coverage",
    pro: ["p3447", "p3449"],
    con: ["p3451", "p3452"],
    response:
      "Should trans fats be banned from food? There's no simple answer. Supporters of a ban emphasize that trans fats are uniquely bad for health, unlike other fats that can be part of a balanced diet. In their view, that makes a ban a legitimate way for the state to shield the public from harm. Opponents, however, believe the government's proper role is to give consumers clear information about what is in their food and let them decide for themselves, rather than restricting what they may buy. Ultimately, the question is how far public health justifies limits on personal choice.",
    spans: [
      ["p3447", "trans fats are uniquely bad for health, unlike other fats that can be part of a balanced diet"],
      ["p3449", "a ban a legitimate way for the state to shield the public from harm"],
      [
        "p3451",
        "the government's proper role is to give consumers clear information about what is in their food and let them decide for themselves, rather than restricting what they may buy",
      ],
    ],
    dropped: ["p3452"],
    note: "a ban is uneconomical (p3452) never mentioned",
  },
  {
    topic: "perspectrum-463",
    kind: "hallucination",
    pro: ["p3449"],
    con: ["p3451", "p3452"],
    response:
      "Those in favour of a ban say the state has a duty to protect citizens' health, and outlawing trans fats in food is a direct way to do that. They often point to Denmark, which restricted industrial trans fats in 2003 and afterwards saw deaths from heart disease fall faster than in comparable countries. Those against a ban argue that the government should focus on labelling and education, giving consumers the facts instead of limiting their options. They also consider a ban poor value economically. How one weighs these arguments depends on one's view of the state's role in personal health.",
    spans: [
      [
        "p3449",
        "the state has a duty to protect citizens' health, and outlawing trans fats in food is a direct way to do that",
      ],
      [
        "p3451",
        "the government should focus on labelling and education, giving consumers the facts instead of limiting their options",
      ],
      ["p3452", "a ban poor value economically"],
    ],
    errorSpans: [
      "They often point to Denmark, which restricted industrial trans fats in 2003 and afterwards saw deaths from heart disease fall faster than in comparable countries",
    ],
    note: "invented extra pro claim: Denmark's 2003 restriction and falling heart-disease deaths",
  },
  {
    topic: "perspectrum-469",
    kind: "clean",
    pro: ["p3489", "p6440"],
    con: ["p3490", "p3492"],
    response:
      "Junk food bans in schools are popular with many parents, yet they also draw pushback. Supporters argue that pupils who eat well learn better, so improving nutrition at school pays off in the classroom. They also link junk food directly to obesity, a growing problem among children. Critics answer that schools should teach children how to make healthy choices rather than making those choices for them. They also note that sales of snacks and sugary drinks bring in money that many schools rely on. The right approach may depend on a school's circumstances and on what replaces the foods that are removed.",
    spans: [
      ["p3489", "pupils who eat well learn better, so improving nutrition at school pays off in the classroom"],
      ["p6440", "link junk food directly to obesity"],
      ["p3490", "schools should teach children how to make healthy choices rather than making those choices for them"],
      ["p3492", "sales of snacks and sugary drinks bring in money that many schools rely on"],
    ],
  },
  {
    topic: "perspectrum-469",
    kind: "clean",
    pro: ["p6442", "p6441", "p6443"],
    con: ["p3493"],
    response:
      "There's a health case and a practical case to weigh here. On the health side, supporters of a ban cite several risks. Diets heavy in junk food are associated with a higher chance of developing diabetes. Such food may also impair how well the brain works, which matters for children who are trying to learn. And removing it from schools, they argue, could help reduce how often heart disease occurs later in life. The practical objection is simple: a ban would not stop children eating unhealthy food, because many would just bring it from home or buy it on the way. Both points deserve consideration.",
    spans: [
      ["p6442", "Diets heavy in junk food are associated with a higher chance of developing diabetes"],
      ["p6441", "Such food may also impair how well the brain works"],
      ["p6443", "removing it from schools, they argue, could help reduce how often heart disease occurs later in life"],
      [
        "p3493",
        "a ban would not stop children eating unhealthy food, because many would just bring it from home or buy it on the way",
      ],
    ],
  },
  {
    topic: "perspectrum-469",
    kind: "perspective-confusion",
    pro: ["p3489", "p26336"],
    con: ["p3490", "p3493"],
    response:
      "Whether junk food should be banned from schools is a question that divides parents and educators. Proponents of a ban say that better-fed children make better students, with more energy and focus for learning. Opponents raise several objections. They believe schools should educate children about healthy eating instead of deciding for them what they may eat. They also stress that good eating habits are formed at home and from an early age, so a school ban comes too late and in the wrong place. And they predict that pupils would simply bring unhealthy snacks with them. The debate continues in many school districts.",
    spans: [
      ["p3489", "better-fed children make better students, with more energy and focus for learning"],
      ["p3490", "schools should educate children about healthy eating instead of deciding for them what they may eat"],
      ["p3493", "pupils would simply bring unhealthy snacks with them"],
    ],
    errorSpans: [
      "good eating habits are formed at home and from an early age, so a school ban comes too late and in the wrong place",
    ],
    dropped: ["p26336"],
    note: "pro argument p26336 (a healthy diet starts from home, early) presented as an opponents' objection",
  },
  {
    topic: "perspectrum-469",
    kind: "both",
    pro: ["p6440", "p6444"],
    con: ["p3492", "p3490"],
    response:
      "Banning junk food from schools sounds straightforward, but the arguments on each side are worth spelling out. Advocates focus on health, warning that regular junk food consumption contributes to obesity in children. Critics raise practical and philosophical concerns. Many schools, they note, depend on revenue from vending machines and snack sales to fund activities. They also believe the proper role of a school is to teach students to choose well, not to choose for them. Some add that a ban would be easy to get around, since students would simply carry crisps and sweets in from outside. Ultimately, the answer depends on how these considerations are weighed.",
    spans: [
      ["p6440", "regular junk food consumption contributes to obesity in children"],
      ["p3492", "Many schools, they note, depend on revenue from vending machines and snack sales to fund activities"],
      ["p3490", "the proper role of a school is to teach students to choose well, not to choose for them"],
    ],
    errorSpans: [
      "Some add that a ban would be easy to get around, since students would simply carry crisps and sweets in from outside",
    ],
    extra: "p3493",
    dropped: ["p6444"],
    note: "bone health (p6444) dropped; unused con argument p3493 (pupils bring junk food in) stated",
  },
  {
    topic: "perspectrum-49",
    kind: "clean",
    pro: ["p363", "p362"],
    con: ["p366", "p367"],
    response:
      "The claim that history does not belong in the classroom is a provocative one, and it has both defenders and critics. Those who make it warn that history lessons can be turned into state propaganda, presenting a distorted version of the past. They also argue that whatever is taught will inevitably reflect the mistaken assumptions and agendas of whoever designs the curriculum. Critics of this view insist that history is essential for children, because it is central to understanding who they are and where their nation comes from. They add that studying history builds skills, such as weighing evidence and constructing arguments, that are useful far beyond the subject itself.",
    spans: [
      ["p363", "history lessons can be turned into state propaganda, presenting a distorted version of the past"],
      [
        "p362",
        "whatever is taught will inevitably reflect the mistaken assumptions and agendas of whoever designs the curriculum",
      ],
      [
        "p366",
        "history is essential for children, because it is central to understanding who they are and where their nation comes from",
      ],
      [
        "p367",
        "studying history builds skills, such as weighing evidence and constructing arguments, that are useful far beyond the subject itself",
      ],
    ],
  },
  {
    topic: "perspectrum-49",
    kind: "hallucination",
    pro: ["p363"],
    con: ["p26937", "p7531"],
    response:
      "Few people argue that history should vanish from schools entirely, but the idea raises questions worth considering. Skeptics of history teaching point out that governments can use it as a propaganda tool, bending the past to suit present political goals. Defenders reply that understanding where we have come from helps us decide where we are going. They also note that history overlaps with many other subjects, from literature to geography, so it supports learning across the curriculum. Moreover, they argue, historians can establish the facts of the past firmly enough for them to be taught to children with confidence. The question is ultimately about what schools are for.",
    spans: [
      ["p363", "governments can use it as a propaganda tool, bending the past to suit present political goals"],
      ["p26937", "understanding where we have come from helps us decide where we are going"],
      [
        "p7531",
        "history overlaps with many other subjects, from literature to geography, so it supports learning across the curriculum",
      ],
    ],
    errorSpans: [
      "Moreover, they argue, historians can establish the facts of the past firmly enough for them to be taught to children with confidence",
    ],
    extra: "p365",
    note: "unused con argument p365 (historical facts can be established) stated",
  },
  {
    topic: "perspectrum-49",
    kind: "coverage",
    pro: ["p362", "p363"],
    con: ["p365", "p7532"],
    response:
      "Whether history has a place in the classroom depends partly on how much one trusts those who write the syllabus. Critics of history teaching argue that lessons will always carry the blind spots and goals of the people who set the curriculum, so children absorb someone's agenda along with the dates. Supporters of history teaching disagree. They maintain that the facts of the past can be established reliably enough to teach to schoolchildren. And they see historical knowledge as something everyone simply needs to have. In the end, the disagreement is about whether the risks of bias outweigh the value of knowing the past.",
    spans: [
      [
        "p362",
        "lessons will always carry the blind spots and goals of the people who set the curriculum, so children absorb someone's agenda along with the dates",
      ],
      ["p365", "the facts of the past can be established reliably enough to teach to schoolchildren"],
      ["p7532", "historical knowledge as something everyone simply needs to have"],
    ],
    dropped: ["p363"],
    note: "state-sponsored propaganda (p363) never mentioned",
  },
  {
    topic: "perspectrum-49",
    kind: "clean",
    pro: ["p362"],
    con: ["p26937", "p367", "p7531"],
    response:
      "Opinions differ on this. Some argue history has no place in schools because the version children learn will reflect the errors and purposes of those who decide the curriculum. Others disagree, for three reasons. Knowing the past, they say, gives us guidance for the future. History also teaches transferable skills, like analysing sources and writing persuasively, that serve students in other subjects and in everyday life. Finally, its content links up with other disciplines, reinforcing what pupils learn elsewhere. Whether these benefits outweigh concerns about bias is the heart of the question.",
    spans: [
      ["p362", "the version children learn will reflect the errors and purposes of those who decide the curriculum"],
      ["p26937", "Knowing the past, they say, gives us guidance for the future"],
      [
        "p367",
        "History also teaches transferable skills, like analysing sources and writing persuasively, that serve students in other subjects and in everyday life",
      ],
      ["p7531", "its content links up with other disciplines, reinforcing what pupils learn elsewhere"],
    ],
  },
  {
    topic: "perspectrum-499",
    kind: "clean",
    pro: ["p3695", "p3696"],
    con: ["p3698", "p3700"],
    response:
      "Mandatory vaccination is one of the sharper tensions between public health and personal liberty. Supporters argue that the state has an obligation to protect the community as a whole, and compulsory vaccination is one way to fulfil it. They also emphasize a duty toward children themselves, who deserve protection from preventable diseases. Opponents see compulsion as a violation of a person's right to decide what happens to their own body. They also point to the risk of serious adverse reactions to vaccines. How a society resolves this depends on how it balances collective safety against individual rights.",
    spans: [
      ["p3695", "the state has an obligation to protect the community as a whole"],
      ["p3696", "a duty toward children themselves, who deserve protection from preventable diseases"],
      ["p3698", "compulsion as a violation of a person's right to decide what happens to their own body"],
      ["p3700", "the risk of serious adverse reactions to vaccines"],
    ],
  },
  {
    topic: "perspectrum-499",
    kind: "partial-hallucination",
    pro: ["p3697", "p3695"],
    con: ["p3699", "p3700"],
    response:
      "Should vaccination be made compulsory? Advocates make two main points. Making vaccines mandatory would ease the financial pressure on the health system, since preventing disease is cheaper than treating it. And protecting the wider community, they argue, is a core duty of the state. Opponents respond that parents, not the government, should have the right to decide whether their child is vaccinated. They also warn that most vaccines cause severe side effects, making compulsion hard to justify. In the end, the answer depends on how one weighs these competing concerns.",
    spans: [
      [
        "p3697",
        "Making vaccines mandatory would ease the financial pressure on the health system, since preventing disease is cheaper than treating it",
      ],
      ["p3695", "protecting the wider community, they argue, is a core duty of the state"],
      ["p3699", "parents, not the government, should have the right to decide whether their child is vaccinated"],
      ["p3700", "most vaccines cause severe side effects, making compulsion hard to justify"],
    ],
    errorSpans: ["most vaccines cause severe side effects"],
    note: "p3700 shifted: 'vaccines have severe side effects' -> 'most vaccines cause severe side effects'",
  },
  {
    topic: "perspectrum-499",
    kind: "both",
    pro: ["p3696", "p3697"],
    con: ["p3698", "p3699"],
    response:
      "Compulsory vaccination is debated around the world. Those in favour start from the child: society, they argue, has a duty to shield children from diseases that vaccines can prevent. They also point to recent measles outbreaks in communities where vaccination rates fell below the roughly 95% needed for herd immunity. Those against argue from rights. Forcing someone to be vaccinated, they say, breaches the individual's right to bodily integrity. And they hold that decisions about a child's vaccinations belong to the parents. The question remains contentious, and policies differ widely between countries.",
    spans: [
      ["p3696", "society, they argue, has a duty to shield children from diseases that vaccines can prevent"],
      ["p3698", "Forcing someone to be vaccinated, they say, breaches the individual's right to bodily integrity"],
      ["p3699", "decisions about a child's vaccinations belong to the parents"],
    ],
    errorSpans: [
      "They also point to recent measles outbreaks in communities where vaccination rates fell below the roughly 95% needed for herd immunity",
    ],
    dropped: ["p3697"],
    note: "financial relief on the health system (p3697) dropped; invented extra pro claim about measles outbreaks and the 95% herd-immunity threshold",
  },
  {
    topic: "perspectrum-499",
    kind: "clean",
    pro: ["p3697", "p3696"],
    con: ["p3699"],
    response:
      "There's no easy answer to whether vaccination should be compulsory. People who support a mandate often make an economic argument: widespread vaccination would take financial pressure off the health system by preventing costly illnesses. They also frame it as a matter of protecting children, who cannot make the choice for themselves. People who oppose a mandate put the emphasis on the family. In their view, choosing whether a child receives vaccines is a decision that rightly belongs to parents. The debate often becomes a question of who should decide on a child's behalf.",
    spans: [
      [
        "p3697",
        "widespread vaccination would take financial pressure off the health system by preventing costly illnesses",
      ],
      ["p3696", "protecting children, who cannot make the choice for themselves"],
      ["p3699", "choosing whether a child receives vaccines is a decision that rightly belongs to parents"],
    ],
  },
  {
    topic: "perspectrum-499",
    kind: "coverage",
    pro: ["p3695"],
    con: ["p3698", "p3699", "p3700"],
    response:
      "Compulsory vaccination divides opinion. Supporters believe the state has a fundamental duty to safeguard the health of its communities, and that requiring vaccines is part of meeting that duty. Opponents raise a number of objections. They argue that compelling people to be injected violates their right to bodily integrity. They also warn that vaccines can have severe side effects, which in their view makes compulsion hard to justify. Supporters and opponents often disagree not only on values but also on how they read the medical evidence.",
    spans: [
      [
        "p3695",
        "the state has a fundamental duty to safeguard the health of its communities, and that requiring vaccines is part of meeting that duty",
      ],
      ["p3698", "compelling people to be injected violates their right to bodily integrity"],
      ["p3700", "vaccines can have severe side effects"],
    ],
    dropped: ["p3699"],
    note: "parental right to decide (p3699) never mentioned",
  },
  {
    topic: "perspectrum-508",
    kind: "clean",
    pro: ["p3760", "p3761"],
    con: ["p3765", "p3762"],
    response:
      "Funding universities through a tax on graduates is an idea that keeps resurfacing in policy debates. Its supporters argue that it would put university finances on a more sustainable footing than the current system. They also believe it would make higher education fairer, since graduates would pay according to what they later earn rather than facing an upfront charge. Critics see practical problems. Graduates, they warn, could simply move abroad to escape the tax. They also argue that building the system needed to collect it would be very expensive. As with most funding reforms, the details of the design matter a great deal.",
    spans: [
      ["p3760", "it would put university finances on a more sustainable footing than the current system"],
      [
        "p3761",
        "it would make higher education fairer, since graduates would pay according to what they later earn rather than facing an upfront charge",
      ],
      ["p3765", "Graduates, they warn, could simply move abroad to escape the tax"],
      ["p3762", "building the system needed to collect it would be very expensive"],
    ],
  },
  {
    topic: "perspectrum-508",
    kind: "hallucination",
    pro: ["p3759", "p3760"],
    con: ["p3763"],
    response:
      "Should graduates, rather than students or general taxpayers, pay for higher education? Proponents of a graduate tax say it is the most effective way to persuade more young people to go to university, since nobody would face fees before they start. They add that it would give universities a steadier, more sustainable source of funding. Opponents argue that better and more efficient ways of funding universities already exist. Some also fear that routing money through a national tax would hand the government more control over universities, eroding their independence. The debate is ultimately about who should bear the cost of higher education.",
    spans: [
      [
        "p3759",
        "it is the most effective way to persuade more young people to go to university, since nobody would face fees before they start",
      ],
      ["p3760", "it would give universities a steadier, more sustainable source of funding"],
      ["p3763", "better and more efficient ways of funding universities already exist"],
    ],
    errorSpans: [
      "Some also fear that routing money through a national tax would hand the government more control over universities, eroding their independence",
    ],
    extra: "p3764",
    note: "unused con argument p3764 (reduced university autonomy) stated",
  },
  {
    topic: "perspectrum-508",
    kind: "clean",
    pro: ["p3759"],
    con: ["p3764", "p3763"],
    response:
      "A graduate tax would replace tuition fees with an extra levy on graduates' earnings, and it has both champions and critics. Champions believe it is the best available way to draw more students into higher education, because the cost would no longer be a barrier at the point of entry. Critics raise two concerns. They argue that it would weaken the autonomy of universities, leaving them dependent on funds allocated by the state. They also maintain that there are other funding models that would do the job more efficiently. Which side is more persuasive depends on one's priorities for higher education.",
    spans: [
      [
        "p3759",
        "it is the best available way to draw more students into higher education, because the cost would no longer be a barrier at the point of entry",
      ],
      ["p3764", "it would weaken the autonomy of universities, leaving them dependent on funds allocated by the state"],
      ["p3763", "there are other funding models that would do the job more efficiently"],
    ],
  },
  {
    topic: "perspectrum-508",
    kind: "perspective-confusion",
    pro: ["p3761", "p3760"],
    con: ["p3765", "p3762"],
    response:
      "A graduate tax would change who pays for university, and when. Those in favour say it would make access to higher education fairer and more equitable, because students from poorer backgrounds would not be deterred by upfront costs. Those against raise several concerns: graduates might relocate overseas to avoid paying, and creating the machinery to collect the tax would be costly. Even critics concede that a graduate tax would put university funding on a more sustainable footing, though they doubt the gain would be worth the upheaval. Ultimately, the answer depends on how these trade-offs are weighed.",
    spans: [
      [
        "p3761",
        "it would make access to higher education fairer and more equitable, because students from poorer backgrounds would not be deterred by upfront costs",
      ],
      ["p3765", "graduates might relocate overseas to avoid paying"],
      ["p3762", "creating the machinery to collect the tax would be costly"],
    ],
    errorSpans: [
      "Even critics concede that a graduate tax would put university funding on a more sustainable footing, though they doubt the gain would be worth the upheaval",
    ],
    dropped: ["p3760"],
    note: "pro argument p3760 (more sustainable funding) presented as a concession by the critics",
  },
];
