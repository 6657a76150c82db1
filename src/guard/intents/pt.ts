/** The intent patterns in Portuguese: see src/guard/intents.ts. */
import { B, E, P, qualified, re, type IntentPattern } from './kit.js';

/** Made on first use (intents.ts), like every table's regular expressions. */
export const ptPatterns = (): IntentPattern[] => [
  // ── Portuguese ────────────────────────────────────────────────────────────
  {
    id: 'pt-override',
    category: 'instruction_override',
    lang: 'pt',
    regex: re(`(?:ignore|ignora|ignorem|esqueça|esqueca|esquece|esqueçam|desconsidere|desconsidera|descarte|despreze|não\\s+ligue\\s+para|deixe\\s+de\\s+seguir|pare\\s+de\\s+seguir)${E}${P}{0,40}?${B}(?:instruç(?:ões|ão)|instrucoes|orientaç(?:ões|ão)|regras|diretrizes|normas|prompt|restriç(?:ões|ão)|comandos|políticas|limitações)${E}`),
    prose: true,
    accept: qualified(/(?:anteriores|prévias|previas|acima|suas|seus|tuas|teus|todas|todos|do\s+sistema|de\s+sistema|originais|iniciais|de\s+segurança|recebidas)/iu),
  },
  {
    id: 'pt-role',
    category: 'role_hijack',
    lang: 'pt',
    regex: re(`(?:você|voce|tu)\\s+(?:já\\s+)?não\\s+(?:é|és|e)\\s+mais\\s+(?:um|uma|o|a)?\\s*(?:assistente|ia|bot|modelo|chatbot)${E}|(?:ia|assistente|modelo|bot|inteligência\\s+artificial)\\s+sem\\s+(?:nenhuma?\\s+|qualquer\\s+)?(?:limites|restriç(?:ões|ão)|regras|filtros|censura)${E}`),
    prose: false,
  },
  {
    id: 'pt-mode',
    category: 'role_hijack',
    lang: 'pt',
    regex: re(`modo\\s+(?:desenvolvedor|programador|dev|deus|irrestrito|sem\\s+restriç(?:ões|ão)|sem\\s+limites|jailbreak|dan)\\s+(?:está\\s+)?(?:ativado|ativo|habilitado|ligado)|(?:ative|ativa|entre\\s+no|habilite)\\s+(?:o\\s+)?modo\\s+(?:desenvolvedor|programador|deus|irrestrito|jailbreak|dan)${E}|(?:você|voce|tu)\\s+(?:já\\s+)?não\\s+(?:tem|possui|tens)\\s+(?:mais\\s+)?(?:nenhuma?\\s+|qualquer\\s+)?(?:restriç|limite|regra|filtro)\\p{L}*(?:\\s+mais)?|(?:(?:suas|tuas)\\s+(?:\\p{L}+\\s+)?(?:regras|restriç(?:ões|ão)|instruç(?:ões|ão)|diretrizes|políticas|limitações)|(?:regras|restrições|instruções|diretrizes)\\s+(?:do\\s+sistema|de\\s+segurança|do\\s+desenvolvedor|do\\s+operador|anteriores|originais))\\s+(?:(?:já\\s+)?não\\s+(?:se\\s+aplicam|valem|são\\s+(?:mais\\s+)?válidas|contam)(?:\\s+mais)?|deixaram\\s+de\\s+(?:valer|se\\s+aplicar))`),
    prose: false,
  },
  {
    id: 'pt-leak',
    category: 'prompt_leak',
    lang: 'pt',
    regex: re(`(?:mostre|mostra|mostrem|exiba|exibe|imprima|revele|revela|repita|repete|diga|escreva|copie|me\\s+dê|me\\s+dá|compartilhe|cite)${E}${P}{0,30}?(?:prompt\\s+(?:de|do)\\s+sistema|(?:seu|o|teu)\\s+prompt(?:\\s+(?:inicial|original|oculto))?|(?:suas|tuas)\\s+instruç(?:ões)|instruç(?:ões)\\s+(?:ocultas|iniciais|originais|secretas|do\\s+sistema))`),
    prose: true,
  },
  {
    id: 'pt-exfil',
    category: 'exfiltration',
    lang: 'pt',
    regex: re(`(?:envie|envia|enviem|mande|manda|encaminhe|encaminha|reencaminhe|suba|faça\\s+upload|transmita|compartilhe|(?<!de\\s)passe|repasse)${E}${P}{0,50}?${B}(?:conversa|conversas|histórico|historico|mensagens|senhas?|chaves?|tokens?|credenciais|segredos?|\\.env|id_rsa|conteúdo|conteudo|variáveis\\s+de\\s+ambiente)${E}|(?:senhas?|chaves?|credenciais|segredos?|conversa|histórico)${E}${P}{0,50}?${B}(?:envie|mande|encaminhe|passe-as|passe-os|(?<!de\\s)passe|repasse|compartilhe)${E}`),
    prose: true,
  },
  {
    id: 'pt-covert',
    category: 'instruction_override',
    lang: 'pt',
    regex: re(`não\\s+(?:conte|diga|fale|mencione|informe|avise|revele|contem|digam)\\s+(?:nada\\s+)?(?:disso\\s+)?(?:ao|à|aos|às|para\\s+o|para\\s+a)\\s+(?:usuári[oa]s?|usuari[oa]s?|utilizador(?:es)?|cliente|pessoa)|sem\\s+que\\s+o\\s+(?:usuário|usuario|utilizador)\\s+(?:saiba|perceba|note)|(?:secretamente|em\\s+segredo|às\\s+escondidas|escondido|silenciosamente|sem\\s+avisar)${E}\\s*,?\\s*(?:envie|encaminhe|execute|guarde|mande|adicione|copie)`),
    prose: false,
  },
  {
    id: 'pt-anyone',
    category: 'exfiltration',
    lang: 'pt',
    regex: re(`(?:senhas?|chaves?|tokens?|credenciais|segredos?)${P}{0,60}?(?:(?:para|a)\\s+quem\\s+(?:pedir|perguntar|quiser)|a\\s+qualquer\\s+(?:um|pessoa)|para\\s+qualquer\\s+(?:um|pessoa)|para\\s+todos|a\\s+todos)${E}`),
    prose: true,
  },

];
