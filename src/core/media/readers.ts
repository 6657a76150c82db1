/**
 * What the core needs done to bytes (ARCHITECTURE.md §15), behind interfaces: the libraries (file-type,
 * sharp, pdfjs-dist, mammoth, ffmpeg) live in src/media and come in from the composition root.
 * Each rejects with an AttachmentError whose message is the one line a user is told.
 */

export interface EncodedImage {
  bytes: Uint8Array;
  mime: string;
  width: number;
  height: number;
}

export interface MediaReaders {
  /** The type the bytes are (magic numbers), or undefined (text, or unknown). */
  sniff(bytes: Uint8Array): Promise<string | undefined>;
  /** Decoded within a pixel limit and re-encoded with its long side at most `maxSide`; `mime`: its sniffed type. */
  image(bytes: Uint8Array, maxSide: number, mime?: string): Promise<EncodedImage>;
  /** The text of a PDF, pages in order. */
  pdf(bytes: Uint8Array, maxChars: number): Promise<string>;
  /** The text of a DOCX. */
  docx(bytes: Uint8Array): Promise<string>;
  /** Starts loading the document readers in the background (a document is on its way); never throws. */
  preloadDocuments?(): void;
}

export interface AudioInput {
  bytes: Uint8Array;
  /** Sniffed type (`audio/ogg`, `video/mp4` …). */
  mime: string;
  name: string;
}

export interface Transcript {
  text: string;
  /** Length of the audio, where the backend knows it. */
  seconds?: number;
}

/** A transcription backend (`transcription.backend`): openai or command. */
export interface Transcriber {
  /** `openai` or `command`, for messages. */
  readonly name: string;
  transcribe(audio: AudioInput, signal?: AbortSignal): Promise<Transcript>;
  /** For doctor: a problem line, or null when the backend is usable. */
  check(): Promise<string | null>;
}
