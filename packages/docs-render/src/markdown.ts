import GithubSlugger from 'github-slugger';
import { Lexer, walkTokens, type Token, type Tokens } from 'marked';

export interface Link {
  href: string;
  /** 1-based line of the block that holds the link. */
  line: number;
}

export interface CodeBlock {
  /** The language of the fence, `sh` in ```` ```sh no-run ````. */
  lang: string;
  /** The words after the language, `no-run` in ```` ```sh no-run ````. */
  flags: string[];
  code: string;
  line: number;
}

export interface ParsedMarkdown {
  title: string | null;
  /** The anchors of the headings, as GitHub writes them (`## 4.1 Booking` → `41-booking`). */
  anchors: Set<string>;
  links: Link[];
  codeBlocks: CodeBlock[];
}

/** A heading's text as a reader sees it (no backticks, no link syntax): what GitHub builds its anchor from. */
export const plainText = (tokens: Token[] | undefined): string =>
  (tokens ?? [])
    .map((token) => ('tokens' in token && token.tokens ? plainText(token.tokens) : 'text' in token ? String(token.text) : ''))
    .join('');

export const parseMarkdown = (markdown: string): ParsedMarkdown => {
  const tokens = new Lexer().lex(markdown);
  const slugger = new GithubSlugger();
  const result: ParsedMarkdown = { title: null, anchors: new Set(), links: [], codeBlocks: [] };
  let line = 1;
  for (const block of tokens) {
    let searchFrom = 0;
    /** The line of `token`, found by its text inside its block (the lexer keeps no positions). */
    const lineOf = (token: Token) => {
      const at = block.raw.indexOf(token.raw, searchFrom);
      if (at === -1) return line;
      searchFrom = at + 1;
      return line + block.raw.slice(0, at).split('\n').length - 1;
    };
    walkTokens([block], (token) => {
      if (token.type === 'heading') {
        const heading = token as Tokens.Heading;
        const text = plainText(heading.tokens);
        if (heading.depth === 1 && result.title === null) result.title = text;
        result.anchors.add(slugger.slug(text));
      } else if (token.type === 'link' || token.type === 'image') {
        result.links.push({ href: (token as Tokens.Link).href, line: lineOf(token) });
      } else if (token.type === 'code' && (token as Tokens.Code).codeBlockStyle !== 'indented') {
        const [lang = '', ...flags] = ((token as Tokens.Code).lang ?? '').trim().split(/\s+/);
        result.codeBlocks.push({ lang, flags, code: (token as Tokens.Code).text, line });
      }
    });
    line += block.raw.split('\n').length - 1;
  }
  return result;
};
