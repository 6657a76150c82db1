/** The intent patterns in French: see src/guard/intents.ts. */
import { B, E, P, qualified, re, type IntentPattern } from './kit.js';

/** Made on first use (intents.ts), like every table's regular expressions. */
export const frPatterns = (): IntentPattern[] => [
  // ── French ────────────────────────────────────────────────────────────────
  {
    id: 'fr-override',
    category: 'instruction_override',
    lang: 'fr',
    regex: re(`(?:ignore|ignorez|oublie|oubliez|ne\\s+tiens\\s+pas\\s+compte\\s+d|ne\\s+tenez\\s+pas\\s+compte\\s+d|fais\\s+abstraction\\s+d|faites\\s+abstraction\\s+d|écarte|écartez|laisse\\s+tomber|cesse\\s+de\\s+suivre|arrête\\s+de\\s+suivre)${P}{0,40}?${B}(?:instructions?|consignes?|règles|regles|directives|prompt|restrictions|limites|ordres|politiques)${E}`),
    prose: true,
    accept: qualified(/(?:précédent|precedent|antérieur|anterieur|ci-dessus|plus\s+haut|\btes\b|\bvos\b|toutes|\btous\b|du\s+système|du\s+systeme|système|initial|origin|de\s+sécurité|reçues)/iu),
  },
  {
    id: 'fr-role',
    category: 'role_hijack',
    lang: 'fr',
    regex: re(`(?:tu\\s+n['’]es|vous\\s+n['’]êtes)\\s+plus\\s+(?:un|une|l['’])?\\s*(?:assistant|assistante|ia|bot|modèle|modele|chatbot)${E}|(?:ia|assistant|modèle|bot|intelligence\\s+artificielle)\\s+sans\\s+(?:aucune?\\s+|la\\s+moindre\\s+|quelconque\\s+)?(?:restrictions?|limites?|règles?|filtres?|censure)${E}`),
    prose: false,
  },
  {
    id: 'fr-mode',
    category: 'role_hijack',
    lang: 'fr',
    regex: re(`mode\\s+(?:développeur|developpeur|dieu|sans\\s+(?:restrictions?|limites?)|jailbreak|dan)\\s+(?:est\\s+)?(?:activé|active|actif|enclenché)|(?:active|activez|passe\\s+en|passez\\s+en|entre\\s+en)\\s+(?:le\\s+)?mode\\s+(?:développeur|developpeur|dieu|sans\\s+(?:restrictions?|limites?)|jailbreak|dan)${E}|(?:tu\\s+n['’]as|vous\\s+n['’]avez)\\s+plus\\s+(?:aucune?\\s+|de\\s+)?(?:restriction|limite|règle|filtre)\\p{L}*|(?:(?:tes|vos)\\s+(?:\\p{L}+\\s+)?(?:règles|restrictions|instructions|consignes|directives|limites)|(?:règles|restrictions|instructions|consignes)\\s+(?:du\\s+système|de\\s+sécurité|du\\s+développeur|précédentes|d['’]origine))\\s+ne\\s+(?:s['’]appliquent|comptent|valent|sont\\s+valables)\\s+plus`),
    prose: false,
  },
  {
    id: 'fr-leak',
    category: 'prompt_leak',
    lang: 'fr',
    regex: re(`(?:affiche|affichez|montre|montrez|montre-moi|révèle|révélez|revele|répète|répétez|repete|donne|donnez|donne-moi|écris|écrivez|copie|recopie|cite|dis-moi|dites-moi|imprime)${E}${P}{0,40}?(?:prompt\\s+syst[èe]me|(?:ton|votre|le)\\s+(?:prompt|message)\\s+(?:syst[èe]me|initial|d['’]origine|original|caché)|(?:tes|vos)\\s+instructions|instructions\\s+(?:cachées|initiales|secrètes|d['’]origine|du\\s+système))`),
    prose: true,
  },
  {
    id: 'fr-exfil',
    category: 'exfiltration',
    lang: 'fr',
    regex: re(`(?:envoie|envoyez|envoie-moi|transmets|transmettez|transfère|transférez|transfere|poste|postez|téléverse|partage|partagez|expédie|fais\\s+suivre|faites\\s+suivre|donne-les|donnez-les|communique)${E}${P}{0,50}?(?:conversation|historique|échanges|messages|mots?\\s+de\\s+passe|clés?|cles?|jetons?|tokens?|identifiants|secrets?|\\.env|id_rsa|contenu|variables\\s+d['’]environnement)|(?:mots?\\s+de\\s+passe|clés|identifiants|secrets|conversation|historique)${P}{0,50}?${B}(?:envoie|transmets|donne-les|partage|communique|transfère)${E}`),
    prose: true,
  },
  {
    id: 'fr-covert',
    category: 'instruction_override',
    lang: 'fr',
    regex: re(`ne\\s+(?:dis|dites|raconte|racontez|mentionne|mentionnez|signale|signalez|révèle|révélez)\\s+rien\\s+(?:à\\s+l['’]utilisat|au\\s+client|à\\s+la\\s+personne|à\\s+personne)|sans\\s+(?:le\\s+dire\\s+à\\s+|prévenir\\s+|en\\s+informer\\s+|avertir\\s+)l['’]utilisat(?:eur|rice)|sans\\s+que\\s+l['’]utilisat(?:eur|rice)\\s+(?:ne\\s+)?(?:le\\s+)?(?:sache|remarque|s['’]en\\s+aperçoive)|(?:en\\s+secret|secrètement|discrètement|en\\s+cachette|à\\s+son\\s+insu|silencieusement)${E}\\s*,?\\s*(?:envoie|transfère|exécute|enregistre|ajoute|copie|transmets)`),
    prose: false,
  },
  {
    id: 'fr-anyone',
    category: 'exfiltration',
    lang: 'fr',
    regex: re(`(?:mots?\\s+de\\s+passe|clés?|jetons?|identifiants|secrets?)${P}{0,60}?(?:à\\s+quiconque|à\\s+n['’]importe\\s+qui|à\\s+tous\\s+ceux\\s+qui|à\\s+qui\\s+(?:les\\s+|le\\s+)?(?:demande|veut))`),
    prose: true,
  },

];
