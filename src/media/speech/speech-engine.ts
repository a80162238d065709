/**
 * Which speech-to-text engine runs, as configured (CUEPOINT_SPEECH_TO_TEXT and its companions,
 * read by src/config.ts): none (`off`), the local one, or an OpenAI-compatible server.
 */
import type { Cidr } from '../../net/address-policy.ts';
import type { Lookup } from '../../net/check-url.ts';
import { openAiTranscriptions, type TranscriptionServer } from './openai-transcriptions.ts';
import { type PocketsphinxInstall, pocketsphinxEngine } from './pocketsphinx.ts';
import type { SpeechToText } from './speech-to-text.ts';

export type SpeechToTextSettings =
  | { engine: 'off' }
  | { engine: 'local'; maxSeconds: number; pocketsphinx: PocketsphinxInstall }
  | { engine: 'http'; maxSeconds: number; server: Omit<TranscriptionServer, 'allowPrivateNetworks' | 'lookup'> };

export type SpeechToTextOn = Exclude<SpeechToTextSettings, { engine: 'off' }>;

export function speechEngineOf(
  settings: SpeechToTextOn,
  outbound: { allowPrivateNetworks: readonly Cidr[]; lookup?: Lookup },
): SpeechToText {
  switch (settings.engine) {
    case 'local':
      return pocketsphinxEngine(settings.pocketsphinx);
    case 'http':
      return openAiTranscriptions({ ...settings.server, ...outbound });
  }
}
