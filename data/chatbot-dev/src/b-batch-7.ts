import type { HandExampleB } from "./b-types.ts";

/** Batch 7: a limit on homework, children's part-time work, social networking at the workplace. */
export const batch7: HandExampleB[] = [
  {
    topic: "perspectrum-927",
    kind: "clean",
    pro: ["p5033", "p7508"],
    con: ["p5032", "p3819"],
    response:
      "Should there be a cap on how much homework children get? Many parents and teachers think so, though not everyone agrees.\n\nThose who favour a limit warn that excessive homework can harm children, leaving them exhausted and anxious. They add that young people need a balance between mental effort and physical activity, and evenings spent entirely at a desk upset that balance.\n\nThose wary of limits see homework as central to education, a way for students to learn things that go beyond the day's lessons. They also value how homework draws parents into their child's learning, giving them a window onto what is being taught.\n\nThe right amount probably varies by age and by child.",
    spans: [
      ["p5033", "excessive homework can harm children, leaving them exhausted and anxious"],
      [
        "p7508",
        "young people need a balance between mental effort and physical activity, and evenings spent entirely at a desk upset that balance",
      ],
      [
        "p3819",
        "homework as central to education, a way for students to learn things that go beyond the day's lessons",
      ],
      ["p5032", "homework draws parents into their child's learning, giving them a window onto what is being taught"],
    ],
  },
  {
    topic: "perspectrum-927",
    kind: "clean",
    pro: ["p25472", "p3747"],
    con: ["p5030", "p5031", "p3817"],
    response:
      "Opinions on limiting homework differ. Advocates of a limit note there's little evidence that homework makes any difference for younger children, and they worry that heavy workloads turn pupils against learning altogether. Sceptics of a limit argue the opposite: homework, they say, improves achievement, helps reinforce what has been learned and builds good study habits and life skills, and it gives students the practice they need to master what they are taught in class. Most agree the question is one of degree rather than principle.",
    spans: [
      ["p25472", "there's little evidence that homework makes any difference for younger children"],
      ["p3747", "heavy workloads turn pupils against learning altogether"],
      ["p5030", "homework, they say, improves achievement"],
      ["p5031", "helps reinforce what has been learned and builds good study habits and life skills"],
      ["p3817", "it gives students the practice they need to master what they are taught in class"],
    ],
  },
  {
    topic: "perspectrum-927",
    kind: "hallucination",
    pro: ["p5034"],
    con: ["p3818", "p5032"],
    response:
      "There's no simple answer to whether homework should be limited.\n\nThose who want a cap say heavy homework loads hit low-income students hardest, since they often lack a quiet place to work or help at home. They point to the 'ten-minute rule' endorsed by the National PTA and the National Education Association, which suggests about ten minutes of homework per night for each grade level.\n\nThose who resist limits argue that homework connects the child, the school and the home. They also see it as one of the main ways parents can take part in their children's education.\n\nUltimately, it comes down to how schools balance these priorities.",
    spans: [
      [
        "p5034",
        "heavy homework loads hit low-income students hardest, since they often lack a quiet place to work or help at home",
      ],
      ["p3818", "homework connects the child, the school and the home"],
      ["p5032", "one of the main ways parents can take part in their children's education"],
    ],
    errorSpans: [
      "They point to the 'ten-minute rule' endorsed by the National PTA and the National Education Association, which suggests about ten minutes of homework per night for each grade level",
    ],
    note: "invented extra pro claim citing the ten-minute rule endorsed by the National PTA and NEA",
  },
  {
    topic: "perspectrum-927",
    kind: "partial-hallucination",
    pro: ["p7508", "p5033"],
    con: ["p5030"],
    response:
      "Putting a limit on homework is a popular idea, but it has its critics.\n\nSupporters of a limit argue that children need a healthy balance between schoolwork and physical exercise, which hours of homework make impossible. They also warn that too much homework can be genuinely harmful to children.\n\nOpponents of limits believe homework is the single most important factor in how well students achieve, so restricting it would hold pupils back.\n\nThe debate often comes down to age: what suits a teenager may be too much for a seven-year-old.",
    spans: [
      [
        "p7508",
        "children need a healthy balance between schoolwork and physical exercise, which hours of homework make impossible",
      ],
      ["p5033", "too much homework can be genuinely harmful to children"],
      [
        "p5030",
        "homework is the single most important factor in how well students achieve, so restricting it would hold pupils back",
      ],
    ],
    errorSpans: ["homework is the single most important factor in how well students achieve"],
    note: "p5030 says homework improves achievement; the response makes it the single most important factor",
  },
  {
    topic: "perspectrum-942",
    kind: "clean",
    pro: ["p7572", "p7573"],
    con: ["p7577", "p7576"],
    response:
      "Should children take on part-time or summer jobs? Parents often disagree.\n\nSupporters say work teaches valuable life skills, from turning up on time to dealing with customers and managing responsibility. They also point out that children can put the money they earn to good use, whether saving for something or easing pressure on the family budget.\n\nOpponents worry that young workers are easily exploited, paid too little or asked to work too long by employers who know they won't complain. They also argue that children simply don't have the time, with school, homework and family commitments already filling their days.\n\nThe answer may depend on the child, the job and the hours involved.",
    spans: [
      [
        "p7572",
        "work teaches valuable life skills, from turning up on time to dealing with customers and managing responsibility",
      ],
      [
        "p7573",
        "children can put the money they earn to good use, whether saving for something or easing pressure on the family budget",
      ],
      [
        "p7577",
        "young workers are easily exploited, paid too little or asked to work too long by employers who know they won't complain",
      ],
      [
        "p7576",
        "children simply don't have the time, with school, homework and family commitments already filling their days",
      ],
    ],
  },
  {
    topic: "perspectrum-942",
    kind: "clean",
    pro: ["p7574", "p7575"],
    con: ["p7577"],
    response:
      "Views on children working part time or over the summer vary. For some, the appeal is the sense of pride that comes from doing a job well and being paid for it. Others see it as especially valuable for children who aren't academically inclined, giving them a chance to shine outside the classroom. Critics, however, fear that children in work are vulnerable to exploitation by employers. Whether the benefits outweigh the risks depends heavily on the safeguards in place.",
    spans: [
      ["p7574", "the sense of pride that comes from doing a job well and being paid for it"],
      [
        "p7575",
        "especially valuable for children who aren't academically inclined, giving them a chance to shine outside the classroom",
      ],
      ["p7577", "children in work are vulnerable to exploitation by employers"],
    ],
  },
  {
    topic: "perspectrum-942",
    kind: "coverage",
    pro: ["p7575", "p7572", "p7574"],
    con: ["p7576"],
    response:
      "There's no simple answer to whether children should work during term time or the holidays.\n\nSupporters argue that a job can be a good path for children who struggle at school, offering a different kind of success. Work also teaches skills that are useful for life, such as handling money and working in a team.\n\nOpponents argue that children's schedules are already full, and there's simply no room for a job alongside school and everything else.\n\nFamilies will weigh these considerations differently.",
    spans: [
      ["p7575", "a job can be a good path for children who struggle at school, offering a different kind of success"],
      ["p7572", "Work also teaches skills that are useful for life, such as handling money and working in a team"],
      [
        "p7576",
        "children's schedules are already full, and there's simply no room for a job alongside school and everything else",
      ],
    ],
    dropped: ["p7574"],
    note: "drops the pro argument about the satisfaction of a job well done",
  },
  {
    topic: "perspectrum-942",
    kind: "both",
    pro: ["p7573", "p7572"],
    con: ["p7576", "p7577"],
    response:
      "Should children do part-time and summer work? Opinions are split.\n\nSupporters emphasise that the money can be genuinely useful to children and their families. They add that a job teaches skills that stay with young people for life. For children who find academic work difficult, they note, a job can offer a route to success that school does not.\n\nCritics counter that children don't have the time; between school, homework and rest, their days are already full.\n\nHow these considerations balance out will depend on each child's circumstances.",
    spans: [
      ["p7573", "the money can be genuinely useful to children and their families"],
      ["p7572", "a job teaches skills that stay with young people for life"],
      ["p7576", "children don't have the time; between school, homework and rest, their days are already full"],
    ],
    errorSpans: [
      "For children who find academic work difficult, they note, a job can offer a route to success that school does not",
    ],
    extra: "p7575",
    dropped: ["p7577"],
    note: "drops the con argument that children will be exploited; adds the unused pro argument that work suits un-academic children",
  },
  {
    topic: "perspectrum-948",
    kind: "clean",
    pro: ["p26978", "p4745"],
    con: ["p4730", "p4717"],
    response:
      "Whether employers should block social networking sites at work is a common workplace dilemma.\n\nThose in favour of a ban say social media eats up working hours, as employees scroll feeds and check notifications when they should be doing their jobs. They see it as a drag on productivity, not just a matter of a few lost minutes.\n\nThose against a ban point out that many businesses, from large corporations to small firms, rely on social media to reach and serve their customers. Social networks also help employers find new recruits and help people find work.\n\nMany organisations settle on a policy somewhere in between.",
    spans: [
      [
        "p26978",
        "social media eats up working hours, as employees scroll feeds and check notifications when they should be doing their jobs",
      ],
      ["p4745", "They see it as a drag on productivity, not just a matter of a few lost minutes"],
      [
        "p4730",
        "many businesses, from large corporations to small firms, rely on social media to reach and serve their customers",
      ],
      ["p4717", "Social networks also help employers find new recruits and help people find work"],
    ],
  },
  {
    topic: "perspectrum-948",
    kind: "hallucination",
    pro: ["p7614", "p4736"],
    con: ["p4734", "p4712"],
    response:
      "Should social networking sites be banned at work? Here are the main arguments.\n\nSupporters of a ban take a simple view: work is work, and personal browsing has no place during paid hours. They also worry that social media offers little privacy, exposing users, and potentially their employers, to intrusion by governments and corporations. On top of that, they note, these platforms are full of unreliable and false information that can mislead staff.\n\nOpponents of a ban emphasise speed. Social media spreads information faster than any other medium, and during a crisis it allows people to communicate almost instantly.\n\nWhether a ban makes sense may depend on the type of workplace.",
    spans: [
      ["p7614", "work is work, and personal browsing has no place during paid hours"],
      [
        "p4736",
        "social media offers little privacy, exposing users, and potentially their employers, to intrusion by governments and corporations",
      ],
      ["p4712", "Social media spreads information faster than any other medium"],
      ["p4734", "during a crisis it allows people to communicate almost instantly"],
    ],
    errorSpans: [
      "On top of that, they note, these platforms are full of unreliable and false information that can mislead staff",
    ],
    extra: "p4735",
    note: "states the unused pro argument that social media spreads unreliable and false information",
  },
  {
    topic: "perspectrum-948",
    kind: "coverage",
    pro: ["p4756", "p4754"],
    con: ["p4716", "p4722", "p4728"],
    response:
      "Views on banning social networking at work vary considerably.\n\nProponents highlight the risks. Anything posted on social media can never be fully deleted, and a careless post from the office can have consequences nobody intended. Unauthorised sharing also exposes artists and creators to copyright theft, lost intellectual property and lost income, risks an employer may not want to be associated with.\n\nOpponents see social media as an empowering tool, particularly for women in business, who use it to build networks and promote their work. They also value crowdsourcing and crowdfunding, through which people can pool their efforts to achieve shared goals.\n\nThe right policy probably depends on the nature of the job.",
    spans: [
      [
        "p4756",
        "Anything posted on social media can never be fully deleted, and a careless post from the office can have consequences nobody intended",
      ],
      [
        "p4754",
        "Unauthorised sharing also exposes artists and creators to copyright theft, lost intellectual property and lost income",
      ],
      [
        "p4716",
        "social media as an empowering tool, particularly for women in business, who use it to build networks and promote their work",
      ],
      [
        "p4728",
        "They also value crowdsourcing and crowdfunding, through which people can pool their efforts to achieve shared goals",
      ],
    ],
    dropped: ["p4722"],
    note: "drops the con argument that social media is good for the economy",
  },
  {
    topic: "perspectrum-948",
    kind: "partial-coverage",
    pro: ["p4742", "p4738"],
    con: ["p4715", "p4725"],
    response:
      "Should workplaces ban social networking sites? Opinions differ sharply.\n\nThose in favour argue that social media reduces the time people spend interacting face to face, including with colleagues. They also link heavy use to stress.\n\nThose against argue that social networks help people strengthen existing relationships and make new friends. They add that these platforms are a lifeline for people who are shy or socially isolated, giving them an easier way to connect with others.\n\nUltimately, it depends on how one weighs these concerns.",
    spans: [
      ["p4742", "social media reduces the time people spend interacting face to face, including with colleagues"],
      ["p4738", "They also link heavy use to stress"],
      ["p4715", "social networks help people strengthen existing relationships and make new friends"],
      [
        "p4725",
        "these platforms are a lifeline for people who are shy or socially isolated, giving them an easier way to connect with others",
      ],
    ],
    partial: "p4738",
    note: "p4738 keeps 'stress' but drops 'offline relationship problems'",
  },
];
