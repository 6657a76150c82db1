/** The intent patterns in German: see src/guard/intents.ts. */
import { B, E, P, qualified, re, type IntentPattern } from './kit.js';

/** Made on first use (intents.ts), like every table's regular expressions. */
export const dePatterns = (): IntentPattern[] => [
  // ── German ────────────────────────────────────────────────────────────────
  {
    id: 'de-override',
    category: 'instruction_override',
    lang: 'de',
    regex: re(`(?:ignoriere|ignorier|ignorieren\\s+sie|vergiss|vergessen\\s+sie|missachte|missachten\\s+sie|verwirf|übergehe|befolge\\s+nicht\\s+mehr|hör\\s+auf,?\\s+(?:\\p{L}+\\s+)?zu\\s+befolgen)${E}${P}{0,40}?\\p{L}*(?:anweisung|instruktion|regel|richtlinie|vorgabe|befehl|prompt|einschränkung|beschränkung|vorschrift)\\p{L}*`),
    prose: true,
    accept: qualified(/(?:vorherig|bisherig|obig|früher|vorangegangen|vorausgegangen|ursprünglich|alle|deine|ihre|dein|system|sicherheit)/iu),
  },
  {
    id: 'de-role',
    category: 'role_hijack',
    lang: 'de',
    regex: re(`(?:du\\s+bist|bist\\s+du|sie\\s+sind|sind\\s+sie)\\s+(?:ab\\s+(?:jetzt|sofort)\\s+|jetzt\\s+|nun\\s+)?kein(?:e)?\\s+(?:assistent|assistentin|ki|bot|sprachmodell|chatbot)${E}|(?:ki|assistent|bot|modell|sprachmodell|künstliche\\s+intelligenz)\\s+ohne\\s+(?:jegliche\\s+|irgendwelche\\s+|alle\\s+)?(?:einschränkungen|beschränkungen|regeln|grenzen|filter|zensur)${E}`),
    prose: false,
  },
  {
    id: 'de-mode',
    category: 'role_hijack',
    lang: 'de',
    regex: re(`(?:entwickler|developer|gott|jailbreak|dan)-?modus\\s+(?:ist\\s+)?(?:jetzt\\s+|nun\\s+)?(?:aktiviert|aktiv|an|eingeschaltet)${E}|(?:aktiviere|aktivier|wechsle\\s+in\\s+den)\\s+(?:den\\s+)?(?:entwickler|developer|gott|jailbreak|dan)-?modus|(?:du\\s+hast|sie\\s+haben)\\s+(?:ab\\s+jetzt\\s+|jetzt\\s+|nun\\s+|ab\\s+sofort\\s+)?keine(?:rlei)?\\s+(?:\\p{L}+\\s+)?(?:einschränkung|beschränkung|regel|grenze|filter)\\p{L}*\\s+mehr|(?:(?:deine|ihre)\\s+(?:\\p{L}+\\s+)?(?:regeln|einschränkungen|anweisungen|richtlinien|vorgaben)|(?:system|sicherheits|entwickler)(?:regeln|anweisungen|richtlinien|vorgaben))\\s+gelten\\s+(?:ab\\s+jetzt\\s+|jetzt\\s+|nun\\s+|ab\\s+sofort\\s+)?nicht\\s+mehr`),
    prose: false,
  },
  {
    id: 'de-leak',
    category: 'prompt_leak',
    lang: 'de',
    regex: re(`(?:gib|zeig|zeige|nenne|wiederhole|verrate|drucke|schreib|schreibe|kopiere|offenbare|poste|liste)(?:\\s+mir)?${E}${P}{0,40}?(?:system-?prompt|systemnachricht|systemanweisung|(?:deine|ihre)\\p{L}*\\s+(?:\\p{L}+\\s+)?(?:anweisungen|instruktionen|vorgaben|prompt)|versteckten?\\s+anweisungen)`),
    prose: true,
  },
  {
    id: 'de-exfil',
    category: 'exfiltration',
    lang: 'de',
    regex: re(`(?:schick|schicke|schickt|sende|sendet|senden\\s+sie|leite|übermittle|übermittelt|maile|mailt|e-?maile|poste|lade|gib)${E}${P}{0,50}?(?:chatverlauf|verlauf|unterhaltung|gespräch|konversation|nachrichten|passw(?:ö|oe)rt\\p{L}*|schlüssel|token|zugangsdaten|geheimnisse|\\.env|id_rsa|inhalt|umgebungsvariablen)|(?:chatverlauf|verlauf|unterhaltung|gespräch|konversation|passw(?:ö|oe)rt\\p{L}*|schlüssel|zugangsdaten|\\.env|id_rsa|inhalt)${P}{0,50}?${B}(?:schickt|schicke|sendet|sende|mailt|maile|weiterleitet|hochlädt|übermittelt|gib|weitergibt)${E}`),
    prose: true,
    accept: (m) => !/\b(?:lade|gib|leite)\b/i.test(m[0].slice(0, 6)) || /(?:hoch|weiter|an\s|zu\s|\bjedem|https?:|@)/iu.test(m[0]),
  },
  {
    id: 'de-covert',
    category: 'instruction_override',
    lang: 'de',
    regex: re(`(?:sag|sage|sagt|erzähl|erzähle|verrate|teile)\\s+(?:dem|der|den)\\s+(?:benutzer|nutzer|anwender|user|kunden)(?:in|n)?\\s+nichts|ohne\\s+dass\\s+(?:es\\s+)?(?:der|die)\\s+(?:benutzer|nutzer|anwender)\\p{L}*\\s+(?:es\\s+|davon\\s+)?(?:merkt|weiß|erfährt|mitbekommt)|(?:heimlich|insgeheim|unbemerkt|verdeckt|stillschweigend|klammheimlich)${E}\\s+${P}{0,20}?(?:schick|send|führ|speicher|kopier|leite|lade|füg)|sag\\s+(?:es\\s+)?niemandem`),
    prose: false,
  },
  {
    id: 'de-anyone',
    category: 'exfiltration',
    lang: 'de',
    regex: re(`(?:passw(?:ö|oe)rt|schlüssel|token|zugangsdaten|geheimnis)\\p{L}*${P}{0,60}?${B}(?:jedem|jeder\\s*mann|allen|wem\\s+auch\\s+immer)${E}`),
    prose: true,
  },

];
