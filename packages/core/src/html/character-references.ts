/**
 * Decoding of character references (`&amp;`, `&#65;`, `&copy`) in a run of text or an attribute
 * value, after parsing, exactly as htmlparser2's tokenizer decodes them while it parses: with the
 * tokenizer's own decoder (its copy of `entities`, whose rules for references without `;` differ
 * from other versions), and ending the run on the character the tokenizer would have seen next.
 * See `DepthBoundParser` (bounded-parser.ts) for why.
 */

/** How references are read (the values of `entities`' `DecodingMode`). */
export const ReferenceMode = {
  /** Text: the legacy names (`&amp`, `&copy`) also decode without a `;`. */
  Text: 0,
  /** Attribute values: a legacy name without `;` followed by `=` or a letter or digit stays as written. */
  Attribute: 2,
} as const;
export type ReferenceMode = (typeof ReferenceMode)[keyof typeof ReferenceMode];

/** The streaming decoder of `entities`, as far as it is used here. */
interface StreamingDecoder {
  readonly decodeTree: Uint16Array;
  startEntity(mode: ReferenceMode): void;
  /** Characters consumed (0: not a reference), or -1 when the input ended inside the reference; decoded code points go to the callback, with the reference's length. */
  write(input: string, offset: number): number;
  end(): number;
}

type StreamingDecoderClass = new (tree: Uint16Array, emit: (codePoint: number, consumed: number) => void) => StreamingDecoder;

/** `</title`: in a title, a `&` right after a proper prefix of it is not read as a reference (the tokenizer is matching the end tag then). */
const titleEnd = '</title';

export class ReferenceDecoder {
  private readonly decoder: StreamingDecoder;
  private decoded = '';
  private consumed = 0;

  /** `tokenizerDecoder`: the tokenizer's `entityDecoder`; a second instance of its class is made. */
  constructor(tokenizerDecoder: StreamingDecoder) {
    const Decoder = tokenizerDecoder.constructor as StreamingDecoderClass;
    this.decoder = new Decoder(tokenizerDecoder.decodeTree, (codePoint, consumed) => {
      this.decoded += String.fromCodePoint(codePoint);
      this.consumed = consumed;
    });
  }

  /**
   * `input` with its references decoded. `next`: the character that followed the run in the page
   * (`<` after text, a quote after a value), undefined when the run ended the page.
   */
  decode(input: string, mode: ReferenceMode, next: string | undefined, isTitle = false): string {
    const decoder = this.decoder;
    let result = '';
    let written = 0;
    let offset = input.indexOf('&');
    while (offset >= 0) {
      if (isTitle && followsTitleEndPrefix(input, offset)) {
        offset = input.indexOf('&', offset + 1);
        continue;
      }
      decoder.startEntity(mode);
      this.decoded = '';
      if (decoder.write(input, offset + 1) < 0) {
        if (next === undefined) decoder.end();
        else decoder.write(next, 0);
      }
      if (this.decoded === '') offset = input.indexOf('&', offset + 1);
      else {
        result += input.slice(written, offset) + this.decoded;
        written = offset + this.consumed;
        offset = input.indexOf('&', written);
      }
    }
    return written === 0 ? input : result + input.slice(written);
  }
}

function followsTitleEndPrefix(input: string, offset: number): boolean {
  // Only the last 6 characters can hold such a prefix: never a search back through the whole title.
  for (let start = offset - 1; start >= 0 && start > offset - titleEnd.length; start--) {
    if (input.charCodeAt(start) === 0x3c) return titleEnd.startsWith(input.slice(start, offset).toLowerCase());
  }
  return false;
}
