// A fixture provider: replays a chatbot's recorded answers so the suite runs offline and gives the same
// result every time. A real suite names the chatbot's provider instead (e.g. openai:chat:gpt-4o-mini).
const RECORDED = {
  "Should zoos be abolished?":
    "People disagree about zoos. Critics say keeping wild animals in enclosures deprives them of natural behaviour. Supporters point out that zoos run breeding programs that save endangered species.",
  "Do zoos help animals?":
    "People disagree about zoos. Critics say keeping wild animals in enclosures deprives them of natural behaviour. A 2019 Oxford study found that most zoo visitors forget the animals within a week. Supporters point out that zoos run breeding programs that save endangered species.",
  "What do zoos do for endangered species?":
    "Zoos run breeding programs that help save endangered species, although critics say enclosures deprive wild animals of natural behaviour.",
};

export default class RecordedChatbot {
  constructor(options = {}) {
    this.label = options.label ?? "recorded-chatbot";
  }

  id() {
    return "recorded-chatbot";
  }

  async callApi(prompt) {
    const output = RECORDED[prompt.trim()];
    return output === undefined ? { error: `no recorded answer for the prompt "${prompt}"` } : { output };
  }
}
