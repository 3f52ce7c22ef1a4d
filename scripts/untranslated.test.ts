/**
 * No words are left in the components: every text a person reads comes from the catalogues
 * (shared/i18n). Each .tsx file of the dashboard is parsed, and a text child, a string given to a
 * read attribute (title, aria-label, placeholder, ...), or a string or template written as a child
 * that holds a word is reported with its file and line.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(process.cwd(), 'renderer');

/** Attributes whose value a person reads or hears. */
const READ_ATTRIBUTES = new Set([
  'title',
  'label',
  'alt',
  'placeholder',
  'aria-label',
  'aria-description',
  'aria-roledescription',
  'aria-valuetext',
  'aria-placeholder',
]);

/** Texts that are the same in every language: names, symbols. */
const ALLOWED = new Set(['Clever Reaper', 'Clever Cloud']);

const WORD = /\p{L}{2,}/u;

function componentFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : componentFiles(path);
    return entry.name.endsWith('.tsx') && !entry.name.endsWith('.test.tsx') ? [path] : [];
  });
}

function isWords(text: string): boolean {
  const trimmed = text.replace(/\s+/g, ' ').trim();
  return WORD.test(trimmed) && !ALLOWED.has(trimmed);
}

function untranslated(file: string, source: string): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const report = (node: ts.Node, text: string) => {
    const line = sf.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    found.push(`${file}:${line}: "${text.replace(/\s+/g, ' ').trim()}"`);
  };
  const literalWords = (node: ts.Node | undefined): string | null => {
    if (!node) return null;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
      return isWords(node.text) ? node.text : null;
    if (ts.isTemplateExpression(node)) {
      const parts = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ');
      return isWords(parts) ? parts : null;
    }
    if (ts.isConditionalExpression(node)) return literalWords(node.whenTrue) ?? literalWords(node.whenFalse);
    if (ts.isBinaryExpression(node)) {
      const op = node.operatorToken.kind;
      // `cond && 'text'` shows only its right side; a comparison (`view === 'apps'`) shows no text.
      if (op === ts.SyntaxKind.AmpersandAmpersandToken) return literalWords(node.right);
      if (
        op === ts.SyntaxKind.PlusToken ||
        op === ts.SyntaxKind.BarBarToken ||
        op === ts.SyntaxKind.QuestionQuestionToken
      )
        return literalWords(node.left) ?? literalWords(node.right);
      return null;
    }
    if (ts.isParenthesizedExpression(node)) return literalWords(node.expression);
    return null;
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && isWords(node.text)) report(node, node.text);
    if (ts.isJsxExpression(node) && ts.isJsxElement(node.parent)) {
      const words = literalWords(node.expression);
      if (words) report(node, words);
    }
    if (ts.isJsxAttribute(node) && READ_ATTRIBUTES.has(node.name.getText(sf)) && node.initializer) {
      const init = node.initializer;
      const words = ts.isJsxExpression(init) ? literalWords(init.expression) : literalWords(init);
      if (words) report(node, words);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe('no untranslated text in the components', () => {
  const files = componentFiles(ROOT).map((path) => relative(ROOT, path));

  it('finds words where they are, and not in translated text (the checker checked)', () => {
    const sample = `export const A = () => (
      <p title="Hello there" aria-label={t('x')}>
        Wake now {t('apps:wake')} {'Reset it'} {busy ? 'Saving' : t('save')} {\`in \${n} min\`} {n} · —
        {view === 'apps' && <X />} {on && 'Shown text'} {name ?? 'Unnamed app'}
      </p>
    );`;
    const found = untranslated('sample.tsx', sample);
    expect(found).toEqual([
      'sample.tsx:2: "Hello there"',
      'sample.tsx:3: "Wake now"',
      'sample.tsx:3: "Reset it"',
      'sample.tsx:3: "Saving"',
      'sample.tsx:3: "in min"',
      'sample.tsx:4: "Shown text"',
      'sample.tsx:4: "Unnamed app"',
    ]);
  });

  it('every component takes its words from the catalogues', () => {
    const found = files.flatMap((file) => untranslated(file, readFileSync(join(ROOT, file), 'utf8')));
    expect(found, 'texts written in components: move them to shared/i18n/{en,fr}').toEqual([]);
  });
});
