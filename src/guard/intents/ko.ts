/** The intent patterns in Korean: see src/guard/intents.ts. */
import { PC, re, type IntentPattern } from './kit.js';

/** Made on first use (intents.ts), like every table's regular expressions. */
export const koPatterns = (): IntentPattern[] => [
  // ── Korean ────────────────────────────────────────────────────────────────
  {
    id: 'ko-override',
    category: 'instruction_override',
    lang: 'ko',
    regex: re(`(?:이전|앞|위|기존|모든|당신의|너의|네|시스템|원래|보안)${PC}{0,12}?(?:지시|지침|명령|규칙|프롬프트|설정|제한|규정)(?:사항)?(?:을|를|은|는|들)?\\s*${PC}{0,8}?(?:무시|잊어|잊고|따르지\\s*마|따르지\\s*말|신경\\s*쓰지\\s*말|신경\\s*쓰지\\s*마)`),
    prose: true,
  },
  {
    id: 'ko-role',
    category: 'role_hijack',
    lang: 'ko',
    regex: re(`(?:아무|어떤|일체의)?\\s*(?:제한|규칙|제약|필터)(?:도|이)?\\s*없는\\s*(?:AI|인공지능|어시스턴트|도우미|모델|봇)|(?:너는|당신은|넌)\\s*더\\s*이상\\s*(?:어시스턴트|도우미|AI|인공지능)(?:가|이)?\\s*아니|(?:지금부터|이제부터|앞으로)\\s*(?:너는|당신은|넌)${PC}{0,20}?(?:제한|규칙)(?:이|도)?\\s*(?:없|없이)`),
    prose: false,
  },
  {
    id: 'ko-leak',
    category: 'prompt_leak',
    lang: 'ko',
    regex: re(`(?:시스템\\s*프롬프트|시스템\\s*지시|시스템\\s*메시지|초기\\s*지시|숨겨진\\s*지시|당신의\\s*(?:지시|프롬프트|지침)|너의\\s*(?:지시|프롬프트|지침))${PC}{0,16}?(?:출력|보여|알려|공개|표시|반복|말해|적어)`),
    prose: true,
  },
  {
    id: 'ko-exfil',
    category: 'exfiltration',
    lang: 'ko',
    regex: re(`(?:대화(?:\\s*내용)?|채팅\\s*기록|기록|비밀번호|암호|API\\s*키|토큰|자격\\s*증명|\\.env|id_rsa|credentials|환경\\s*변수|파일\\s*내용|내용)${PC}{0,30}?(?:보내|전송|업로드|전달|메일로|공유(?=\\s*(?:해|하|할|를|해서)))`),
    prose: true,
  },
  {
    id: 'ko-covert',
    category: 'instruction_override',
    lang: 'ko',
    regex: re(`(?:사용자|유저|상대방|본인)(?:에게|한테)(?:는)?${PC}{0,14}?(?:말하지\\s*마|알리지\\s*마|말하지\\s*말|알리지\\s*말|비밀로|모르게)|(?:몰래|조용히|은밀히|티\\s*안\\s*나게)${PC}{0,20}?(?:보내|실행|전송|저장|추가|기록)`),
    prose: false,
  },
  {
    id: 'ko-anyone',
    category: 'exfiltration',
    lang: 'ko',
    regex: re(`(?:비밀번호|암호|API\\s*키|토큰)${PC}{0,30}?(?:누가\\s*(?:물어|요청|묻)|누구(?:에게|한테)?(?:든|나)|모두에게|아무에게나)`),
    prose: true,
  },

];
