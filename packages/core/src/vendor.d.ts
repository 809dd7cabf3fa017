// The stopword package ships no types: it exports one string array per ISO 639-3 language code.
declare module "stopword" {
  const lists: Record<string, string[]>;
  export = lists;
}
