import { TRANSFER_VERBS } from './lexicon';
import { words } from './prose';

/** Where text could send data: URLs, bare hosts, e-mail addresses, markdown images. */

/** Example hosts and loopback: links there are documentation, not a sink. */
export function isExampleHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^www\./, '');
  return /(^|\.)(example\.(com|org|net)|localhost|invalid|test|example)$/.test(h) || /^(127\.|0\.0\.0\.0|\[::1\])/.test(h);
}

/** URLs, bare `www.` hosts and e-mail addresses in the text (bounded by the caller's window). */
export function sinks(text: string): { urls: string[]; emails: string[]; queryData: boolean; markdownImage: boolean } {
  const urls: string[] = [];
  let queryData = false;
  // One plain scan first: most texts have no link, and matchAll costs a regex copy and an iterator.
  const linked = /https?:\/\/|www\./i.test(text);
  for (const m of linked ? text.matchAll(/\b(?:https?:\/\/|www\.)([a-z0-9.-]{1,253})([^\s"'<>)\]]{0,512})/gi) : []) {
    urls.push(m[1]);
    const rest = m[2];
    const q = rest.indexOf('?');
    // A query string that carries something filled in at run time: {x}, <x>, $x.
    if (q >= 0 && /[{<$]/.test(rest.slice(q)) && !isExampleHost(m[1])) queryData = true;
  }
  const bareHost = /\.(com|net|org|io|xyz|info|ru|cn|top|site|online|app)\b/i.test(text);
  for (const m of bareHost ? text.matchAll(/\b([a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,4}\.(?:com|net|org|io|xyz|info|ru|cn|top|site|online|app))\b([^\s"'<>)\]]{0,512})/gi) : []) {
    if (!urls.includes(m[1])) urls.push(m[1]);
    const rest = m[2];
    const q = rest.indexOf('?');
    if (q >= 0 && /[{<$]/.test(rest.slice(q))) queryData = true;
  }
  const emails = !text.includes('@') ? [] : [...text.matchAll(/\b[a-z0-9._%+-]{1,64}@([a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){1,4})\b/gi)].map((m) => m[1]);
  const markdownImage = text.includes('![') && /!\[[^\]\n]{0,200}\]\(\s*https?:\/\/[^)\s]{0,512}\?[^)\s]{0,512}\)/i.test(text);
  return { urls, emails, queryData, markdownImage };
}

const SEND_VERBS = set('send sending sent posted uploaded forwarded submitted copy copied copying recipient recipients cc bcc forwarded post posting upload uploading forward forwarding email mail visit visiting download downloading install installing link linking directing redirect redirecting navigate join reach contact submit transmit exfiltrate leak');

function set(words: string): Set<string> {
  return new Set(words.split(' '));
}

/** A host that a sending or visiting verb governs (within four words before it). */
export function nearAddress(text: string, hosts: string[]): string | undefined {
  for (const host of hosts) {
    const at = text.indexOf(host.toLowerCase());
    if (at < 0) continue;
    const before = words(text.slice(Math.max(0, at - 120), at)).list.slice(-8);
    if (before.some((x) => SEND_VERBS.has(x)) || (before.includes('to') && before.some((x) => TRANSFER_VERBS.has(x)))) return host;
  }
  return undefined;
}
