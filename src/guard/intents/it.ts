/** The intent patterns in Italian: see src/guard/intents.ts. */
import { B, E, P, qualified, re, type IntentPattern } from './kit.js';

/** Made on first use (intents.ts), like every table's regular expressions. */
export const itPatterns = (): IntentPattern[] => [
  // ── Italian ───────────────────────────────────────────────────────────────
  {
    id: 'it-override',
    category: 'instruction_override',
    lang: 'it',
    regex: re(`(?:ignora|ignorate|ignori|dimentica|dimenticate|dimentichi|trascura|non\\s+tenere\\s+conto\\s+d|lascia\\s+perdere|scarta|smetti\\s+di\\s+seguire)${E}${P}{0,40}?${B}(?:istruzioni|indicazioni|regole|direttive|linee\\s+guida|prompt|restrizioni|limiti|ordini|politiche)${E}`),
    prose: true,
    accept: qualified(/(?:precedenti|di\s+prima|sopra|\btue\b|\bsue\b|\btutte\b|\btutti\b|di\s+sistema|del\s+sistema|originali|iniziali|di\s+sicurezza|ricevute)/iu),
  },
  {
    id: 'it-role',
    category: 'role_hijack',
    lang: 'it',
    regex: re(`non\\s+sei\\s+più\\s+(?:un|una|un['’]|l['’])?\\s*(?:assistente|ia|bot|modello|chatbot)${E}|(?:ia|assistente|modello|bot|intelligenza\\s+artificiale)\\s+senza\\s+(?:alcun[ao]?\\s+|nessun[ao]?\\s+)?(?:limiti|restrizioni|regole|filtri|censura)${E}`),
    prose: false,
  },
  {
    id: 'it-mode',
    category: 'role_hijack',
    lang: 'it',
    regex: re(`modalità\\s+(?:sviluppatore|developer|dio|senza\\s+(?:restrizioni|limiti)|jailbreak|dan)\\s+(?:è\\s+)?(?:attivata|attiva|abilitata|accesa)|(?:attiva|entra\\s+in|abilita)\\s+(?:la\\s+)?modalità\\s+(?:sviluppatore|developer|dio|senza\\s+(?:restrizioni|limiti)|jailbreak|dan)${E}|non\\s+hai\\s+più\\s+(?:alcuna\\s+|nessuna\\s+|alcun\\s+|nessun\\s+)?(?:restrizion|limit|regol|filtr)\\p{L}*|(?:(?:le\\s+tue|tue)\\s+(?:\\p{L}+\\s+)?(?:regole|restrizioni|istruzioni|direttive|linee\\s+guida)|(?:regole|restrizioni|istruzioni|direttive)\\s+(?:di\\s+sistema|del\\s+sistema|di\\s+sicurezza|dello\\s+sviluppatore|precedenti|originali))\\s+non\\s+(?:valgono|contano|si\\s+applicano|sono\\s+(?:più\\s+)?valide)(?:\\s+più)`),
    prose: false,
  },
  {
    id: 'it-leak',
    category: 'prompt_leak',
    lang: 'it',
    regex: re(`(?:mostra|mostrami|mostrate|stampa|rivela|rivelami|ripeti|dimmi|scrivi|copia|dammi|condividi|cita)${E}${P}{0,30}?(?:prompt\\s+di\\s+sistema|(?:il\\s+tuo|tuo)\\s+prompt|(?:le\\s+tue|tue)\\s+istruzioni|istruzioni\\s+(?:nascoste|iniziali|originali|segrete|di\\s+sistema))`),
    prose: true,
  },
  {
    id: 'it-exfil',
    category: 'exfiltration',
    lang: 'it',
    regex: re(`(?:invia|inviate|invii|manda|mandate|mandi|inoltra|inoltri|carica|trasmetti|condividi|spedisci|comunica|comunicale|comunicali|dalle|dalli)${E}${P}{0,50}?${B}(?:conversazion[ei]|cronologia|chat|messaggi|password|chiavi|chiave|token|credenziali|segreti|\\.env|id_rsa|contenuto|variabili\\s+d['’]ambiente)${E}|(?:password|chiavi|credenziali|segreti|conversazione|cronologia)${E}${P}{0,50}?${B}(?:invia|inviale|manda|mandale|inoltra|comunicale|comunicali|dalle|condividi)${E}`),
    prose: true,
  },
  {
    id: 'it-covert',
    category: 'instruction_override',
    lang: 'it',
    regex: re(`non\\s+(?:dire|dirlo|dirgli|raccontare|menzionare|informare|avvisare|rivelare)\\s+(?:nulla\\s+|niente\\s+)?(?:all['’]utente|al\\s+cliente|alla\\s+persona|a\\s+nessuno)|senza\\s+(?:dirlo|avvisare|informare)\\s+(?:all['’]|l['’])utente|senza\\s+che\\s+l['’]utente\\s+(?:lo\\s+)?(?:sappia|se\\s+ne\\s+accorga|noti)|(?:di\\s+nascosto|segretamente|in\\s+segreto|silenziosamente)${E}\\s*,?\\s*(?:invia|inoltra|esegui|salva|aggiungi|copia|manda)`),
    prose: false,
  },
  {
    id: 'it-anyone',
    category: 'exfiltration',
    lang: 'it',
    regex: re(`(?:password|chiavi|token|credenziali|segreti)${P}{0,60}?(?:a\\s+chiunque|a\\s+tutti|a\\s+chi\\s+(?:le\\s+|li\\s+|lo\\s+|la\\s+)?(?:chiede|chieda|domanda))${E}`),
    prose: true,
  },

];
