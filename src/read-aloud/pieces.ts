/**
 * The most characters of one utterance. Chrome's network voices stop speaking an utterance
 * after about fifteen seconds, so a reply is read as a sequence of short ones, a sentence or
 * a few each, one after the other (src/read-aloud/read-aloud.ts).
 */
const PIECE = 200;

/**
 * `text` with its white space collapsed, in pieces of at most PIECE characters: cut after the
 * last sentence that ends in time, else at the last space, else (a word longer than that,
 * or a language written without spaces) at PIECE.
 */
export function pieces(text: string): string[] {
  const out: string[] = [];
  let rest = text.replace(/\s+/g, ' ').trim();
  while (rest.length > PIECE) {
    const head = rest.slice(0, PIECE + 1);
    const sentence = Math.max(head.lastIndexOf('. '), head.lastIndexOf('? '), head.lastIndexOf('! '), head.lastIndexOf('。'));
    const space = head.lastIndexOf(' ');
    const cut = sentence > PIECE / 4 ? sentence + 1 : space > 0 ? space : PIECE;
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) out.push(rest);
  return out;
}
