import { describe, expect, it } from 'vitest';
import { ElementStack } from '../src/html/element-stack.ts';
import { scanHtml } from '../src/html/sax-scanner.ts';

/** Feeds `html` through the scanner and reports, for every element with an id, the text it held when it closed. */
function closings(html: string): string[] {
  const stack = new ElementStack();
  const open: { id: string; parts: string[] }[] = [];
  const closed: string[] = [];
  scanHtml(html, {
    startTag(tag) {
      stack.open(tag.tagName);
      const id = tag.attrs.find((a) => a.name === 'id')?.value;
      if (id === undefined || ['img', 'br', 'input'].includes(tag.tagName)) return;
      const entry = { id, parts: [] as string[] };
      open.push(entry);
      stack.onClose(() => {
        open.splice(open.indexOf(entry), 1);
        closed.push(`${entry.id}:${entry.parts.join('')}`);
      });
    },
    endTag(tag) {
      stack.close(tag.tagName);
    },
    text(text) {
      for (const entry of open) entry.parts.push(text);
    },
  });
  stack.closeAll();
  return closed;
}

describe('ElementStack', () => {
  it('closes elements on their end tag, innermost first', () => {
    expect(closings('<div id="a">x<span id="b">y</span>z</div>')).toEqual(['b:y', 'a:xyz']);
  });

  it('ends an <li> when the next one starts, but not a parent list item', () => {
    expect(closings('<ul><li id="1">a<li id="2">b<ul><li id="3">c</ul></ul>')).toEqual(['1:a', '3:c', '2:bc']);
  });

  it('ends a <p> at a block start and table cells at the next cell', () => {
    expect(closings('<p id="p">a<div id="d">b</div>')).toEqual(['p:a', 'd:b']);
    expect(closings('<table><tr id="r"><td id="c1">1<td id="c2">2</table>')).toEqual(['c1:1', 'c2:2', 'r:12']);
  });

  it('ignores an ordinary end tag that would cross a <div>, as the tree builder does', () => {
    expect(closings('<div id="card"><span id="s"><div id="inner">x</span></div>y</div>z')).toEqual(['inner:x', 's:xy', 'card:xy']);
  });

  it('ignores stray end tags and closes what is left at the end of input', () => {
    expect(closings('</div><section id="s">a</p>b')).toEqual(['s:ab']);
  });

  it('never opens void elements', () => {
    expect(closings('<div id="a"><img id="i" src="x"><br>t</div>')).toEqual(['a:t']);
  });
});
