/**
 * Every public function of @npov/rouge under hostile arguments (fast-check, fixed seed): it returns a result
 * without NaN or infinities, or throws an NpovError -- never a TypeError, a RangeError or a hang.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { contentTerms, type NpovInput, readJsonFile } from "@npov/core";
import * as rouge from "@npov/rouge";
import { describe, it } from "vitest";
import { attack, type Target } from "../../core/test/hostile.js";

const input: NpovInput = readJsonFile(join(__dirname, "../../../fixtures/examples/uniforms.json")).input;
const response =
  "Opinions differ. Supporters say uniforms reduce visible income differences between students. Critics say uniforms limit how students express their identity.";
const dir = mkdtempSync(join(tmpdir(), "npov-rouge-hostile-"));
const terms = contentTerms(response);
const vectors = {
  dim: 2,
  index: new Map([
    ["a", 0],
    ["b", 1],
  ]),
  data: Float32Array.from([1, 0, 0.6, 0.8]),
};
const lexsim = {
  dim: 2,
  words: ["kid", "child"],
  index: new Map([
    ["kid", 0],
    ["child", 1],
  ]),
  data: Int8Array.from([127, 0, 90, 90]),
  norms: Float32Array.from([127, Math.hypot(90, 90)]),
};
rouge.saveWordVectors(join(dir, "v"), vectors);
rouge.saveLexSim(join(dir, "lexsim"), lexsim);
rouge.saveSpecificityTable(join(dir, "s.json"), { documents: 2, df: new Map([["zoo", 1]]) });
const argTerms = contentTerms(input.perspectives[0]?.arguments[0]?.text ?? "");

describe("@npov/rouge public functions under hostile arguments", () => {
  it("rouge, soft, align and support detectors and their helpers", async () => {
    const matcher = new rouge.SoftMatcher();
    const semantic = new rouge.SemanticMatcher();
    const rougeResult = rouge.rougeDetector(input, response);
    const support = rouge.supportResponse(input, response);
    const targets: Target[] = [
      {
        name: "rougeDetector",
        call: (a, b, c) => rouge.rougeDetector(a as NpovInput, b as string, c as never),
        valid: [input, response, {}],
      },
      { name: "rougeErrorScores", call: (r) => rouge.rougeErrorScores(r as never), valid: [rougeResult] },
      { name: "rougeWordScores", call: (r) => rouge.rougeWordScores(r as never), valid: [rougeResult] },
      {
        name: "rougeErrorDetector",
        call: (o, n, a, b) => rouge.rougeErrorDetector(o as never, n as never).detect(a as NpovInput, b as string),
        valid: [{}, "rouge", input, response],
        runs: 25,
      },
      {
        name: "rougeN",
        call: (a, b, o) => rouge.rougeN(a as string, b as string, o as never),
        valid: [response, "uniforms limit students", { n: 2 }],
      },
      {
        name: "tokenize",
        call: (t, o) => rouge.tokenize(t as string, o as never),
        valid: [response, { tokenizer: "rouge-score" }],
      },
      {
        name: "rougeScoreTokenize",
        call: (t, s, w) => rouge.rougeScoreTokenize(t as string, s as boolean, w as never),
        valid: [response, true, new Set(["the"])],
      },
      { name: "porterStem", call: (w) => rouge.porterStem(w as string), valid: ["running"] },
      { name: "nltkPorterStem", call: (w) => rouge.nltkPorterStem(w as string), valid: ["running"] },
      { name: "countTerms", call: (t) => rouge.countTerms(t as string[]), valid: [["a", "b", "a"]] },
      { name: "ngrams", call: (t, n) => rouge.ngrams(t as string[], n as number), valid: [["a", "b", "c"], 2] },
      {
        name: "clippedOverlap",
        call: (a, b) => rouge.clippedOverlap(a as never, b as never),
        valid: [new Map([["a", 2]]), new Map([["a", 1]])],
      },
      {
        name: "scoreCounts",
        call: (a, b, c) => rouge.scoreCounts(a as number, b as number, c as number),
        valid: [1, 2, 3],
      },
      {
        name: "maxWeightMatching",
        call: (w) => rouge.maxWeightMatching(w as number[][]),
        valid: [
          [
            [1, 0.5],
            [0.2, 0.9],
          ],
        ],
      },
      {
        name: "softRouge",
        call: (a, b) => rouge.softRouge(a as NpovInput, b as string, matcher),
        valid: [input, response],
        runs: 25,
      },
      {
        name: "softRouge(limits)",
        call: (a, b, l) => rouge.softRouge(a as NpovInput, b as string, matcher, l as never),
        valid: [input, response, { maxArguments: 10 }],
        runs: 25,
      },
      {
        name: "alignResponse",
        call: (a, b) => rouge.alignResponse(a as NpovInput, b as string, matcher),
        valid: [input, response],
        runs: 25,
      },
      {
        name: "alignResponse(matcher)",
        call: (a, b, m) => rouge.alignResponse(a as NpovInput, b as string, m as never),
        valid: [input, response, matcher],
        runs: 25,
      },
      {
        name: "softErrorDetector",
        call: (a, b) => rouge.softErrorDetector(matcher).detect(a as NpovInput, b as string),
        valid: [input, response],
        runs: 25,
      },
      {
        name: "alignErrorDetector",
        call: (a, b) => rouge.alignErrorDetector(matcher).detect(a as NpovInput, b as string),
        valid: [input, response],
        runs: 25,
      },
      {
        name: "SoftMatcher.weight",
        call: (a, b) => matcher.weight(a as never, b as never),
        valid: [terms[0], argTerms[0]],
      },
      { name: "SoftMatcher.match", call: (a, b) => matcher.match(a as never, b as never), valid: [terms, argTerms] },
      {
        name: "new SoftMatcher",
        call: (o, a, b) => new rouge.SoftMatcher(o as never).weight(a as never, b as never),
        valid: [{ hypernym: 0.5 }, terms[0], argTerms[0]],
      },
      {
        name: "supportResponse",
        call: (a, b, o) => rouge.supportResponse(a as NpovInput, b as string, o as never),
        valid: [input, response, { queryDiscount: 0.5 }],
        runs: 25,
      },
      {
        name: "supportErrorDetector",
        call: (o, a, b) => rouge.supportErrorDetector(o as never).detect(a as NpovInput, b as string),
        valid: [{}, input, response],
        runs: 25,
      },
      {
        name: "supportFeatures",
        call: (s, a, n) => rouge.supportFeatures(s as never, a as never, n as number),
        valid: [support.sentences, support.arguments, 2],
      },
      {
        name: "SemanticMatcher.weight",
        call: (a, b) => semantic.weight(a as never, b as never),
        valid: [terms[0], argTerms[0]],
      },
      {
        name: "SemanticMatcher.embedding",
        call: (a, b) => semantic.embedding(a as string, b as string),
        valid: ["kid", "child"],
      },
      {
        name: "applyCombiner",
        call: (c, f) => rouge.applyCombiner(c as never, f as never),
        valid: [rouge.defaultSupportCombiner(), support.features],
      },
      {
        name: "predictLogistic",
        call: (m, f) => rouge.predictLogistic(m as never, f as never),
        valid: [rouge.defaultSupportCombiner()?.coverage, support.features],
      },
      {
        name: "fitLogistic",
        call: (r, l, n, o) => rouge.fitLogistic(r as never, l as never, n as never, o as never),
        valid: [[{ x: 1 }, { x: 2 }, { x: 0 }], [true, false, true], ["x"], { l2: 1 }],
      },
      {
        name: "crossValidateLogistic",
        call: (r, l, n, o) => rouge.crossValidateLogistic(r as never, l as never, n as never, o as never),
        valid: [
          [{ x: 1 }, { x: -1 }, { x: 2 }, { x: -2 }],
          [true, false, true, false],
          ["x"],
          { groups: ["a", "a", "b", "b"], folds: 2, weights: (rows: number[]) => rows.map(() => 1) },
        ],
      },
      {
        name: "calibrationReport",
        call: (p, l, b) => rouge.calibrationReport(p as never, l as never, b as never),
        valid: [[0.1, 0.9], [false, true], 10],
      },
      {
        name: "saveSupportCombiner",
        call: (c) => rouge.saveSupportCombiner(join(dir, "c.json"), c as never),
        valid: [rouge.defaultSupportCombiner()],
      },
      {
        name: "loadSupportCombiner",
        call: (f) => rouge.loadSupportCombiner(f as string),
        valid: [join(dir, "c.json")],
      },
      { name: "isDiscourseTerm", call: (t) => rouge.isDiscourseTerm(t as never), valid: [terms[0]] },
      {
        name: "sentenceRole",
        call: (w, o) => rouge.sentenceRole(w as never, o as never),
        valid: [support.sentences[1]?.words.map((w) => ({ ...w, term: terms[0], inQuery: false })), { edge: true }],
      },
      { name: "opensSide", call: (s) => rouge.opensSide(s as string), valid: ["However, critics disagree."] },
      {
        name: "buildSpecificityTable",
        call: (t) => rouge.buildSpecificityTable(t as never),
        valid: [
          [
            {
              id: "t",
              title: "t",
              query: "q?",
              split: "test",
              perspectives: [{ label: "pro", arguments: [{ text: "Zoos help." }] }],
            },
          ],
        ],
      },
      {
        name: "saveSpecificityTable",
        call: (t, m) => rouge.saveSpecificityTable(join(dir, "s.json"), t as never, m as never),
        valid: [{ documents: 2, df: new Map([["zoo", 1]]) }, {}],
      },
      {
        name: "loadSpecificityTable",
        call: (f) => rouge.loadSpecificityTable(f as string),
        valid: [join(dir, "s.json")],
      },
      {
        name: "Specificity",
        call: (t, i, o, term) => new rouge.Specificity(t as never, i as never, o as never).weight(term as never),
        valid: [{ documents: 2, df: new Map([["zoo", 1]]) }, input, { queryDiscount: 0.3 }, terms[0]],
      },
      {
        name: "symmetricEigen",
        call: (m, l) => rouge.symmetricEigen(m as never, l as number),
        valid: [Float64Array.from([2, 1, 1, 2]), 2],
      },
      {
        name: "lexCosine",
        call: (m, a, b) => rouge.lexCosine(m as never, a as string, b as string),
        valid: [lexsim, "kid", "child"],
      },
      { name: "loadLexSim", call: (d) => rouge.loadLexSim(d as string), valid: [join(dir, "lexsim")], runs: 20 },
      { name: "loadWordVectors", call: (d) => rouge.loadWordVectors(d as string), valid: [join(dir, "v")], runs: 20 },
      {
        name: "saveLexSim",
        call: (m, meta) => rouge.saveLexSim(join(dir, "lexsim2"), m as never, meta as never),
        valid: [lexsim, { note: "x" }],
      },
      {
        name: "cosine",
        call: (v, a, b) => rouge.cosine(v as never, a as string, b as string),
        valid: [vectors, "a", "b"],
      },
      {
        name: "nearest",
        call: (v, w, k) => rouge.nearest(v as never, w as string, k as number),
        valid: [vectors, "a", 1],
      },
      {
        name: "trainWordVectors",
        call: (g, o) => rouge.trainWordVectors(g as never, o as never),
        valid: [[["zoos help animals", "zoos protect animals"]], { dim: 4, epochs: 1, minCount: 1 }],
        runs: 25,
      },
      { name: "saveWordVectors", call: (v) => rouge.saveWordVectors(join(dir, "v"), v as never), valid: [vectors] },
      { name: "loadWordNet", call: (d) => rouge.loadWordNet(d as string), valid: [rouge.wordnetDir()], runs: 20 },
      { name: "WordNet.lemmas", call: (w) => rouge.loadWordNet().lemmas(w as string), valid: ["running"] },
      {
        name: "WordNet.synsets",
        call: (w, s) => rouge.loadWordNet().synsets(w as string, s as number),
        valid: ["run", 2],
      },
      {
        name: "WordNet.hypernyms",
        call: (w, s) => rouge.loadWordNet().hypernyms(w as string, s as number),
        valid: ["mom", 2],
      },
      { name: "WordNet.derivations", call: (w) => rouge.loadWordNet().derivations(w as string), valid: ["educate"] },
      {
        name: "evaluateLexSim",
        call: (m, h, c, s) => rouge.evaluateLexSim(m as never, h as never, c as never, s as never),
        valid: [lexsim, [["kid", "child"]], [["kid", "child"]], 1],
        runs: 20,
      },
    ];
    await attack(targets);
  }, 300_000);
});
