/** Things that look like share links and are not (DESIGN decision 3). Each row must yield null. */
import { describe, expect, it } from 'vitest';
import { createLinkRecognizer } from '@/lib/core/links';
import { SERVICES, shareUrl, TOKEN, wrapper } from './helpers';

const recognizer = createLinkRecognizer(SERVICES);
const T = TOKEN;
const enc = encodeURIComponent;

// Positive controls: the same shapes with the trick removed are recognised, so each row below
// fails for the trick and not for some unrelated reason.
describe('controls', () => {
  it.each([
    `https://comply.example/share/${T}`,
    `https://service.example/share/${T}`,
    `http://localhost:8787/share/${T}`,
    `http://127.0.0.1:8787/api/v1/compliance-status/${T}`,
    `https://www.google.com/url?q=${enc(shareUrl('https://comply.example'))}`,
  ])('%s is recognised', (href) => {
    expect(recognizer.recognize({ href })).not.toBeNull();
  });
});

describe('rejected', () => {
  it.each([
    // look-alike hosts
    ['host with configured host as prefix', `https://service.example.evil.com/share/${T}`],
    ['localhost look-alike', `http://localhost.evil.test:8787/share/${T}`],
    ['configured host as subdomain label', `https://evil-comply.example/share/${T}`],
    ['subdomain of a configured host', `https://www.comply.example/share/${T}`],
    ['trailing dot', `https://comply.example./share/${T}`],
    ['host as path', `https://evil.com/service.example/share/${T}`],
    ['host as query', `https://evil.com/?u=https://service.example/share/${T}`],
    ['host as fragment', `https://evil.com/#https://service.example/share/${T}`],
    // userinfo
    ['configured host as username', `https://service.example@evil.test/share/${T}`],
    ['configured host as username + password', `https://service.example:443@evil.test/share/${T}`],
    ['evil username on the configured host', `https://evil.test@service.example/share/${T}`],
    ['empty userinfo', `https://@service.example/share/${T}`],
    ['username:password on configured host', `https://a:b@comply.example/share/${T}`],
    // ports and schemes
    ['port not configured', `https://comply.example:8443/share/${T}`],
    ['local server on another port', `http://localhost:8788/share/${T}`],
    ['local server without port', `http://localhost/share/${T}`],
    ['http for an https service', `http://comply.example/share/${T}`],
    ['https for an http service', `https://localhost:8787/share/${T}`],
    ['javascript: scheme', `javascript:fetch('https://comply.example/share/${T}')`],
    ['javascript: with // comment', `javascript://comply.example/share/${T}%0Aalert(1)`],
    ['data: URL', `data:text/html,<a href="https://comply.example/share/${T}">x</a>`],
    ['ftp scheme', `ftp://comply.example/share/${T}`],
    ['ws scheme', `ws://localhost:8787/share/${T}`],
    ['protocol-relative', `//comply.example/share/${T}`],
    ['scheme-less', `comply.example/share/${T}`],
    ['relative path', `/share/${T}`],
    ['single slash after scheme', `https:/comply.example/share/${T}`],
    ['no slashes after scheme', `https:comply.example/share/${T}`],
    // IDN / punycode / host encodings
    ['Cyrillic е in host', `https://comply.\u0435xample/share/${T}`],
    ['Cyrillic о in host', `https://c\u043emply.example/share/${T}`],
    ['punycode of the Cyrillic look-alike', `https://xn--comply-7ve.example/share/${T}`],
    ['xn-- label prefix', `https://xn--service.example/share/${T}`],
    ['fullwidth dot', `https://comply\uff0eexample/share/${T}`],
    ['percent-encoded host', `https://comply%2Eexample/share/${T}`],
    ['IPv4 shorthand for 127.0.0.1', `http://127.1:8787/share/${T}`],
    ['IPv4 as integer', `http://2130706433:8787/share/${T}`],
    ['IPv4 in hex', `http://0x7f.0.0.1:8787/share/${T}`],
    // path tricks
    ['encoded slash in token slot', `https://comply.example/share/${T.slice(0, 20)}%2F${T.slice(20)}`],
    ['encoded slash, lower case', `https://comply.example/share/abc%2fdefghijklmnopqrstu`],
    ['dot-dot segment after token', `https://comply.example/share/${T}/..`],
    ['dot-dot segment before share', `https://comply.example/x/../share/${T}`],
    ['encoded dot-dot', `https://comply.example/share/%2e%2e/${T}`],
    ['dot segment', `https://comply.example/share/./${T}`],
    ['token is ..', 'https://comply.example/share/..'],
    ['backslash path', `https://comply.example\\share\\${T}`],
    ['backslash after host', `https://comply.example\\share/${T}`],
    ['double slash', `https://comply.example//share/${T}`],
    ['two trailing slashes', `https://comply.example/share/${T}//`],
    ['extra segment', `https://comply.example/share/${T}/extra`],
    ['prefix segment', `https://comply.example/x/share/${T}`],
    ['wrong path', `https://comply.example/shares/${T}`],
    ['upper-case path', `https://comply.example/SHARE/${T}`],
    ['API path without token', 'https://comply.example/api/v1/compliance-status/'],
    ['share path without token', 'https://comply.example/share/'],
    ['other API version', `https://comply.example/api/v2/compliance-status/${T}`],
    ['semicolon parameter in token slot', `https://comply.example/share/${T};x`],
    ['percent-encoded token characters', `https://comply.example/share/%41${T}`],
    // token shape
    ['token too short (15)', 'https://comply.example/share/abcdefghijklmno'],
    ['token too long (129)', `https://comply.example/share/${'a'.repeat(129)}`],
    ['token with dot', `https://comply.example/share/${T}.json`],
    ['token with non-ASCII', `https://comply.example/share/${T}é`],
    ['token with =', `https://comply.example/share/${T}=`],
    // whitespace and control characters
    ['space in token', `https://comply.example/share/${T.slice(0, 20)} ${T.slice(20)}`],
    ['leading space', ` https://comply.example/share/${T}`],
    ['trailing newline', `https://comply.example/share/${T}\n`],
    ['tab in host (URL parser would strip it)', `https://comply.exa\tmple/share/${T}`],
    ['newline in path (URL parser would strip it)', `https://comply.example/sha\nre/${T}`],
    ['NUL', `https://comply.example/share/${T}\u0000`],
    ['DEL', `https://comply.example/share/\u007f${T}`],
    ['zero-width space in host', `https://comply\u200b.example/share/${T}`],
    ['right-to-left override', `https://comply.example/share/${T}\u202e`],
    ['no-break space in query', `https://comply.example/share/${T}?a=\u00a0`],
    ['BOM', `\ufeffhttps://comply.example/share/${T}`],
    ['encoded space inside Safe Links target', wrapper('Outlook Safe Links')(`https://comply.example/share/${T} `)],
    // empties
    ['empty string', ''],
    ['origin only', 'https://comply.example'],
    ['origin with slash', 'https://comply.example/'],
  ])('%s', (_name, href) => {
    expect(recognizer.recognize({ href })).toBeNull();
  });
});

describe('look-alike wrappers are not unwrapped', () => {
  const target = enc(shareUrl('https://comply.example'));
  it.each([
    ['Google look-alike host', `https://www.google.com.evil.test/url?q=${target}`],
    ['Google host in userinfo', `https://www.google.com@evil.test/url?q=${target}`],
    ['evil userinfo on Google', `https://evil.test@www.google.com/url?q=${target}`],
    ['Google, other path', `https://www.google.com/search?q=${target}`],
    ['Google, path with trailing slash', `https://www.google.com/url/?q=${target}`],
    ['Google country domain (not a Gmail wrapper)', `https://www.google.co.uk/url?q=${target}`],
    ['Google, no-scheme javascript', `javascript://www.google.com/url?q=${target}`],
    ['ambiguous q parameters', `https://www.google.com/url?q=${target}&q=${enc('https://evil.test/')}`],
    ['ambiguous q parameters, share link last', `https://www.google.com/url?q=${enc('https://evil.test/')}&q=${target}`],
    [
      'ambiguous Safe Links url parameters',
      `https://nam12.safelinks.protection.outlook.com/?url=${enc('https://evil.test/')}&amp;url=${target}`,
    ],
    ['q and url disagree', `https://www.google.com/url?url=${target}&q=${enc('https://evil.test/')}`],
    ['Safe Links look-alike suffix', `https://nam12.safelinks.protection.outlook.com.evil.test/?url=${target}`],
    ['Safe Links label look-alike', `https://evilsafelinks.protection.outlook.com/?url=${target}`],
    ['Safe Links apex without region', `https://safelinks.protection.outlook.com.evil/?url=${target}`],
    ['Proofpoint look-alike', `https://urldefense.com.evil.test/v2/url?u=https-3A__comply.example_share_${TOKEN}`],
    ['Proofpoint look-alike 2', `https://urldefense-proofpoint.com/v2/url?u=https-3A__comply.example_share_${TOKEN}`],
    ['Proofpoint v3 look-alike', `https://evil.test/v3/__https://comply.example/share/${TOKEN}__;!!a!b$`],
    ['Proofpoint unknown version', `https://urldefense.com/v4/url?u=https-3A__comply.example_share_${TOKEN}`],
    ['Slack look-alike', `https://slack-redir.net.evil.test/link?url=${target}`],
    ['LinkedIn look-alike', `https://www.linkedin.com.evil.test/redir/redirect?url=${target}`],
    ['LinkedIn other path', `https://www.linkedin.com/feed/?url=${target}`],
    ['OWA other path', `https://outlook.office.com/mail/inbox?url=${target}`],
    ['Trend Micro look-alike', `https://ctp.trendmicro.com.evil.test/wis/clicktime/v1/query?url=${target}`],
    ['Trend Micro other path', `https://ctp.trendmicro.com/other?url=${target}`],
    ['open redirect on a configured service is not a wrapper', `https://comply.example/url?q=${target}`],
  ])('%s', (_name, href) => {
    expect(recognizer.recognize({ href })).toBeNull();
  });
});
