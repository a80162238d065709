/**
 * The WAV files speech-to-text works with: 16 kHz, mono, signed 16-bit little-endian PCM, the form
 * both engines take. Reading finds the `data` chunk wherever ffmpeg put it (it may write a LIST
 * chunk before it); writing makes the 44-byte header of a slice sent to a server.
 */
import { open } from 'node:fs/promises';

export const SPEECH_SAMPLE_RATE = 16_000;
export const BYTES_PER_SAMPLE = 2;
const HEADER_PROBE_BYTES = 4096;

export interface WavLayout {
  /** Where the samples start, in bytes from the start of the file. */
  dataOffset: number;
  /** How many bytes of samples follow. */
  dataBytes: number;
}

/** The layout of a WAV file, refusing anything but 16 kHz mono 16-bit PCM. */
export async function readWavLayout(path: string): Promise<WavLayout> {
  const file = await open(path);
  try {
    const { size } = await file.stat();
    const head = Buffer.alloc(Math.min(size, HEADER_PROBE_BYTES));
    await file.read(head, 0, head.length, 0);
    if (head.length < 12 || head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'WAVE') {
      throw new Error(`${path} is not a WAV file`);
    }
    let at = 12;
    let format: { channels: number; rate: number; bits: number; code: number } | undefined;
    while (at + 8 <= head.length) {
      const id = head.toString('latin1', at, at + 4);
      const length = head.readUInt32LE(at + 4);
      if (id === 'fmt ' && at + 24 <= head.length) {
        format = {
          code: head.readUInt16LE(at + 8),
          channels: head.readUInt16LE(at + 10),
          rate: head.readUInt32LE(at + 12),
          bits: head.readUInt16LE(at + 22),
        };
      }
      if (id === 'data') {
        if (format?.code !== 1 || format.channels !== 1 || format.rate !== SPEECH_SAMPLE_RATE || format.bits !== 16) {
          throw new Error(`${path} is not 16 kHz mono 16-bit PCM`);
        }
        const dataOffset = at + 8;
        // A streamed WAV may declare no length (0 or 0xFFFFFFFF): the samples run to the end.
        const declared = length === 0 || length === 0xffffffff ? size - dataOffset : length;
        const whole = Math.min(declared, size - dataOffset);
        return { dataOffset, dataBytes: whole - (whole % BYTES_PER_SAMPLE) };
      }
      at += 8 + length + (length % 2);
    }
    throw new Error(`${path} has no data chunk in its first ${HEADER_PROBE_BYTES} bytes`);
  } finally {
    await file.close();
  }
}

/** A complete WAV file (header and samples) holding the given 16 kHz mono 16-bit samples. */
export function wavFileOf(samples: Buffer): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(SPEECH_SAMPLE_RATE, 24);
  header.writeUInt32LE(SPEECH_SAMPLE_RATE * BYTES_PER_SAMPLE, 28);
  header.writeUInt16LE(BYTES_PER_SAMPLE, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]);
}

/** The samples from `startSeconds` to `endSeconds` of a WAV file, as raw bytes. */
export async function readWavSamples(path: string, layout: WavLayout, startSeconds: number, endSeconds: number): Promise<Buffer> {
  const byteAt = (seconds: number) => Math.min(layout.dataBytes, Math.max(0, Math.round(seconds * SPEECH_SAMPLE_RATE) * BYTES_PER_SAMPLE));
  const from = byteAt(startSeconds);
  const length = byteAt(endSeconds) - from;
  const file = await open(path);
  try {
    const samples = Buffer.alloc(Math.max(0, length));
    const { bytesRead } = await file.read(samples, 0, samples.length, layout.dataOffset + from);
    return samples.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}
