/** The intent patterns in Japanese: see src/guard/intents.ts. */
import { PC, re, type IntentPattern } from './kit.js';

/** Made on first use (intents.ts), like every table's regular expressions. */
export const jaPatterns = (): IntentPattern[] => [
  // ── Japanese ──────────────────────────────────────────────────────────────
  {
    id: 'ja-override',
    category: 'instruction_override',
    lang: 'ja',
    regex: re(`(?:これまで|今まで|以前|前回|上記|上|先ほど|すべて|全て|全部|あなたの|システム|元の|最初の|安全上)${PC}{0,10}?(?:指示|命令|ルール|規則|プロンプト|設定|制約|指令|制限)${PC}{0,10}?(?:無視|忘れ|破棄|従わな|気にせず|気にしな)`),
    prose: true,
  },
  {
    id: 'ja-role',
    category: 'role_hijack',
    lang: 'ja',
    regex: re(`(?:制限|制約|フィルター|ルール|規制)(?:の|が)(?:ない|無い|一切ない|一切無い)${PC}{0,6}?(?:AI|人工知能|アシスタント|モデル|ボット)|(?:あなた|君|お前)は(?:もう|もはや)${PC}{0,10}?(?:アシスタント|AI)(?:では|じゃ)(?:ない|ありません)|(?:今から|これから|以後|今後)${PC}{0,16}?(?:として振る舞|になりきっ|を演じ)${PC}{0,10}?(?:制限|ルール)`),
    prose: false,
  },
  {
    id: 'ja-leak',
    category: 'prompt_leak',
    lang: 'ja',
    regex: re(`(?:システムプロンプト|システム指示|システムメッセージ|初期(?:指示|プロンプト)|隠(?:された|し)(?:指示|命令)|あなたの(?:指示|プロンプト|設定|ルール))${PC}{0,16}?(?:表示|出力|教え|見せ|開示|公開|書き出|繰り返|貼り付け|送)`),
    prose: true,
  },
  {
    id: 'ja-exfil',
    category: 'exfiltration',
    lang: 'ja',
    regex: re(`(?:会話|履歴|チャット|パスワード|秘密鍵|APIキー|API\\s*キー|認証情報|トークン|\\.env|id_rsa|credentials|環境変数|ファイルの中身|中身)${PC}{0,30}?(?:送信|送って|送る|送れ|転送|アップロード|メールで送|共有|教え)`),
    prose: true,
  },
  {
    id: 'ja-covert',
    category: 'instruction_override',
    lang: 'ja',
    regex: re(`(?:ユーザー|ユーザ|利用者|相手|本人)(?:に|には|へは)${PC}{0,12}?(?:伝えない|言わない|知らせない|教えない|黙って|内緒|秘密に)|(?:こっそり|密かに|ひそかに|内緒で|黙って|気づかれないように)${PC}{0,20}?(?:送|実行|転送|保存|追加|記録)`),
    prose: false,
  },
  {
    id: 'ja-anyone',
    category: 'exfiltration',
    lang: 'ja',
    regex: re(`(?:パスワード|秘密鍵|APIキー|トークン|認証情報)${PC}{0,30}?(?:誰にでも|誰であれ|尋ねた人|聞いた人|聞かれたら|全員に)`),
    prose: true,
  },

];
