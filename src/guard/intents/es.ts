/** The intent patterns in Spanish: see src/guard/intents.ts. */
import { B, E, P, qualified, re, type IntentPattern } from './kit.js';

/** Made on first use (intents.ts), like every table's regular expressions. */
export const esPatterns = (): IntentPattern[] => [
  // ── Spanish ───────────────────────────────────────────────────────────────
  {
    id: 'es-override',
    category: 'instruction_override',
    lang: 'es',
    regex: re(`(?:ignora|ignore|ignoren|ignorad|olvida|olvide|olviden|olvidad|descarta|descarte|desobedece|haz\\s+caso\\s+omiso\\s+de|no\\s+hagas\\s+caso\\s+(?:a|de)|deja\\s+de\\s+(?:seguir|obedecer)|pasa\\s+de)${E}${P}{0,40}?${B}(?:instrucci[oó]n(?:es)?|indicaciones|reglas|normas|directrices|pautas|prompt|restricciones|[oó]rdenes|consignas|políticas|limitaciones)${E}`),
    prose: true,
    accept: qualified(/(?:anteriores|previas|de\s+antes|de\s+arriba|tus|sus|todas|todos|del\s+sistema|de\s+sistema|originales|iniciales|de\s+seguridad|recibidas)/iu),
  },
  {
    id: 'es-role',
    category: 'role_hijack',
    lang: 'es',
    regex: re(`(?:ya\\s+no\\s+eres|dejas\\s+de\\s+ser|ya\\s+no\\s+serás)\\s+(?:un|una|el|la)?\\s*(?:asistente|ia|bot|modelo|chatbot)${E}|(?:ia|asistente|modelo|bot|chatbot|inteligencia\\s+artificial)\\s+(?:sin|libre\\s+de)\\s+(?:ningún\\s+tipo\\s+de\\s+|ninguna\\s+|ningún\\s+|ningun\\s+)?(?:restricciones|restricción|límites|limites|reglas|filtros|censura)${E}`),
    prose: false,
  },
  {
    id: 'es-mode',
    category: 'role_hijack',
    lang: 'es',
    regex: re(`modo\\s+(?:desarrollador|programador|dios|sin\\s+restricciones|sin\\s+l[ií]mites|jailbreak|dan)\\s+(?:est[aá]\\s+)?(?:activado|activo|habilitado|encendido)|(?:activa|activad|entra\\s+en|habilita)\\s+(?:el\\s+)?modo\\s+(?:desarrollador|programador|dios|sin\\s+restricciones|jailbreak|dan)${E}|ya\\s+no\\s+tienes\\s+(?:ninguna\\s+|ningún\\s+|ningun\\s+|más\\s+)?(?:restricci|l[ií]mite|regla|filtro|norma)\\p{L}*|(?:(?:tus|sus)\\s+(?:\\p{L}+\\s+)?(?:reglas|restricciones|instrucciones|normas|directrices|políticas|limitaciones)|(?:reglas|restricciones|instrucciones|normas|directrices)\\s+(?:del\\s+sistema|de\\s+seguridad|del\\s+desarrollador|del\\s+operador|anteriores|originales))\\s+(?:ya\\s+no\\s+(?:se\\s+aplican|aplican|valen|son\\s+válidas|rigen|cuentan)|(?:han\\s+dejado|dejaron)\\s+de\\s+(?:aplicar|valer|regir))`),
    prose: false,
  },
  {
    id: 'es-leak',
    category: 'prompt_leak',
    lang: 'es',
    regex: re(`(?:muestra|muéstrame|muestrame|muestre|imprime|revela|repite|dime|escribe|copia|enséñame|dame|comparte|reproduce|cita)${E}${P}{0,30}?(?:prompt\\s+(?:de(?:l)?\\s+sistema|inicial|original|oculto)|(?:tus|sus)\\s+instrucciones|instrucciones\\s+(?:ocultas|iniciales|originales|secretas|del\\s+sistema)|mensaje\\s+del\\s+sistema)`),
    prose: true,
  },
  {
    id: 'es-exfil',
    category: 'exfiltration',
    lang: 'es',
    regex: re(`(?:env[ií]a|env[ií]e|env[ií]en|env[ií]ale|env[ií]ame|manda|mande|mándale|reenv[ií]a|reenv[ií]e|sube|suba|transmite|comparte|remite|filtra|pasa|pásale|dáselas|dáselos|dales)${E}${P}{0,50}?${B}(?:conversaci[oó]n|historial|chat|mensajes|contraseñas?|claves?|tokens?|credenciales|secretos?|\\.env|id_rsa|contenido|variables\\s+de\\s+entorno)${E}|(?:contraseñas?|claves?|credenciales|secretos?|conversaci[oó]n|historial)${E}${P}{0,50}?${B}(?:env[ií]a|env[ií]e|manda|reenv[ií]a|sube|transmite|dáselas|dáselos|dáselo|dáselas|comparte|pásalas)${E}`),
    prose: true,
  },
  {
    id: 'es-covert',
    category: 'instruction_override',
    lang: 'es',
    regex: re(`no\\s+(?:le\\s+|les\\s+)?(?:digas|diga|cuentes|cuente|menciones|mencione|informes|informe|avises|avise|comentes|reveles)\\s+(?:nada\\s+)?(?:de\\s+esto\\s+)?(?:al|a\\s+la|a\\s+los|a\\s+las)\\s+(?:usuari[oa]s?|persona|cliente)|sin\\s+que\\s+(?:el|la)\\s+(?:usuari[oa]|persona)\\s+(?:lo\\s+)?(?:sepa|note|se\\s+entere)|(?:en\\s+secreto|a\\s+escondidas|sin\\s+avisar|discretamente|silenciosamente|a\\s+sus\\s+espaldas)${E}\\s*,?\\s*(?:env[ií]a|reenv[ií]a|ejecuta|guarda|manda|añade|copia|sube)`),
    prose: false,
  },
  {
    id: 'es-anyone',
    category: 'exfiltration',
    lang: 'es',
    regex: re(`(?:contraseñas?|claves?|tokens?|credenciales|secretos?)${P}{0,60}?(?:a\\s+quien\\s+(?:l[oa]s?\\s+)?(?:pida|pregunte|quiera)|a\\s+cualquiera|a\\s+todo\\s+el\\s+que|a\\s+todos)${E}`),
    prose: true,
  },

];
