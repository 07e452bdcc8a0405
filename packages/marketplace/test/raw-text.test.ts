import { describe, expect, it } from 'vitest';
import { rawTextSegments } from '../src/html/raw-text.ts';

describe('rawTextSegments', () => {
  it('cuts script and style bodies but keeps their tags', () => {
    const html = '<p>a</p><script type="x">var s = "<b>";</script><STYLE>.x{}</STYLE ><p>b</p>';
    expect(rawTextSegments(html).join('')).toBe('<p>a</p><script type="x"></script><STYLE></STYLE ><p>b</p>');
  });

  it('reads start tags with quoted `>` and does not stop at look-alike tags', () => {
    const html = '<script data-x="a>b">1</script><scripts>keep</scripts><script>2</scriptx>3</script>';
    expect(rawTextSegments(html).join('')).toBe('<script data-x="a>b"></script><scripts>keep</scripts><script></script>');
  });

  it('does not treat commented-out scripts as scripts', () => {
    const html = '<!-- <script> --><p>x</p><!--><script>y</script>';
    expect(rawTextSegments(html).join('')).toBe('<!-- <script> --><p>x</p><!--><script></script>');
  });

  it('leaves the rest to the tokenizer once a script could be in its escaped state', () => {
    const html = '<script>a</script><script><!-- <script>b</script> c</script><p>d</p>';
    expect(rawTextSegments(html).join('')).toBe('<script></script><script><!-- <script>b</script> c</script><p>d</p>');
  });

  it('leaves unterminated scripts alone', () => {
    expect(rawTextSegments('<p>x</p><script>never closed').join('')).toBe('<p>x</p><script>never closed');
  });
});
