import { postTitleOf, resolveWikiImages, wikiImageNames } from '@spark/contracts';
import { excerptOf, slugOf } from './post-text';

describe('post text', () => {
  it('takes the title from the first level-1 heading, else "Untitled Post"', () => {
    expect(postTitleOf('intro\n## Sub\n# The Real Title\n# Second')).toBe('The Real Title');
    expect(postTitleOf('## only a sub heading')).toBe('Untitled Post');
  });

  it('reads a heading as CommonMark does: a closing run of # after a space is not part of it', () => {
    expect(postTitleOf('# Week 3 ##')).toBe('Week 3');
    expect(postTitleOf('# Learning C#\t')).toBe('Learning C#');
    expect(postTitleOf('#\tTabbed #\r\nnext')).toBe('Tabbed');
    expect(postTitleOf('#hashtag\n# ##\n#  \n# Found')).toBe('Found');
  });

  it('makes readable, URL-safe slugs', () => {
    expect(slugOf('Week 3: Café <script> & Sparks!')).toBe('week-3-cafe-script-sparks');
    expect(slugOf('???')).toBe('post');
  });

  it('lists and resolves wiki-link images', () => {
    const markdown = 'a ![[one.png]] b ![[two.jpg|300]] c ![[one.png]]';
    expect(wikiImageNames(markdown)).toEqual(['one.png', 'two.jpg']);
    expect(resolveWikiImages(markdown, (name) => (name === 'one.png' ? '/img/1' : undefined))).toBe(
      'a ![one.png](</img/1>) b ![[two.jpg|300]] c ![one.png](</img/1>)',
    );
  });

  it('excerpts text without markdown or html', () => {
    expect(excerptOf('# Title\nHello **world** <script>x</script> ![[a.png]] [link](http://x)')).toBe('Hello world link');
    expect(excerptOf('Keep [the (first) link](https://x.test/a_(b)) and <b>bold</b>, drop ![img](x) and ![[y.png|200]]')).toBe(
      'Keep the (first) link and bold, drop and',
    );
    expect(excerptOf("# T\nIntro.\n\n## Next\n\n- Reminders\n\n<SCRIPT>alert('a')</SCRIPT>[click](javascript:alert('b'))")).toBe('Intro. Reminders click');
  });
});
