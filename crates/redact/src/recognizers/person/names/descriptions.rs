//! Capitalized words that a name cue ("I'm", "Dear", a sign-off) puts where a name would be,
//! but that say what someone is, which group or role a letter addresses, or which place a
//! sentence means: "I'm Indian", "I am Diabetic", "I'm Senior Developer", "Dear Hiring
//! Manager", "Kind regards,\nHead of Sales", "Victoria Line", "from Charlotte". All lower case,
//! space-separated; [`super::listed`] looks them up with the name lists in one hash look-up.

/// Words that, first after a cue, describe the writer or the reader rather than name them:
/// nationalities and demonyms (English and German), faiths, diets and conditions, moods and
/// states, job-title words, and things whose name carries a title ("Dr. Pepper").
pub(super) const DESCRIPTIONS: &str = "
afghan albanian algerian american andorran angolan argentine argentinian armenian australian
austrian azerbaijani bahraini bangladeshi belarusian belgian bolivian bosnian brazilian british
bulgarian burmese cambodian cameroonian canadian chilean chinese colombian congolese croatian
cuban cypriot czech danish dominican dutch ecuadorian egyptian emirati english eritrean estonian
ethiopian filipino filipina finnish french georgian german ghanaian greek guatemalan haitian
honduran hungarian icelandic indian indonesian iranian iraqi irish israeli italian ivorian
jamaican japanese jordanian kazakh kenyan korean kosovar kurdish kuwaiti latvian lebanese libyan
lithuanian luxembourgish malaysian maltese mexican moldovan mongolian montenegrin moroccan nepali
nepalese nigerian norwegian pakistani palestinian panamanian paraguayan persian peruvian polish
portuguese qatari romanian russian rwandan saudi scottish senegalese serbian singaporean slovak
slovenian somali spanish sudanese swedish swiss syrian taiwanese tajik tanzanian thai tunisian
turkish ugandan ukrainian uruguayan uzbek venezuelan vietnamese welsh yemeni zambian zimbabwean
african asian european latino latina hispanic arab arabic caribbean scandinavian indigenous
aboriginal native black white mixed biracial
deutscher deutsche österreicher österreicherin schweizer schweizerin amerikaner amerikanerin
engländer engländerin brite britin franzose französin italiener italienerin spanier spanierin
türke türkin russe russin japaner japanerin inder inderin grieche griechin niederländer
holländer kanadier kanadierin chinesin
catholic protestant christian muslim jewish hindu buddhist sikh atheist agnostic orthodox
evangelical mormon lutheran baptist methodist anglican pagan jain shia sunni religious spiritual
katholik katholikin christ christin jüdin
vegan vegetarian pescatarian celiac coeliac lactose gluten-free allergic diabetic autistic
dyslexic deaf blind disabled epileptic asthmatic anxious depressed bipolar pregnant gay lesbian
bisexual straight trans transgender queer nonbinary non-binary male female
veganer veganerin vegetarier vegetarierin diabetiker diabetikerin allergiker allergikerin
sorry fine back home done ready happy sad tired busy sick ill confused stuck lost late early free
available sure glad excited interested curious afraid aware hungry bored alone single married
divorced engaged widowed retired unemployed self-employed freelance really actually totally
currently always never literally basically honestly definitely probably almost pretty certain
going trying looking working having getting using building writing running coming doing
thinking wondering learning planning starting leaving moving studying reading waiting hoping
struggling
senior junior lead head chief principal software product project program data backend frontend
full-stack fullstack devops technical managing general regional associate deputy vice acting
interim independent hiring admissions valued diary
lehrer lehrerin arzt ärztin studentin schüler schülerin rentner rentnerin entwickler
entwicklerin ingenieur ingenieurin informatiker informatikerin programmierer programmiererin
krankenschwester pfleger pflegerin anwalt anwältin mutter vater
pepper robot strange bean house
";

/// Words that never end a person's name, so a run holding one is a role, a group or a place:
/// "Hiring Manager", "Admissions Committee", "Victoria Line", "Sydney Harbour". They describe
/// too when they come first. Common surnames (Park, Hill, Hall, Lake, Nurse, Guest) are left
/// out on purpose.
pub(super) const ROLES_AND_PLACES: &str = "
manager managers committee developer developers engineer engineers designer designers director
directors officer officers department dept marketing member members applicant applicants
candidate candidates recruiter recruiters recruiting recruitment staff board council colleague
colleagues friend friends readers community services relations resources operations engineering
finance accounting management leadership executive executives consultant analyst architect
scientist intern interns specialist coordinator administrator representative customers clients
partners shareholders investors residents neighbours neighbors participants attendees subscribers
employees volunteers organizers organisers tenants passengers patients student students teacher
teachers
line station airport harbour harbor bay island islands county university college institute
hospital cathedral beach falls terminal stadium museum valley heights square coast region
province district peninsula gulf mountains tech zoo arena centre center metro underground
junction quay pier palace tower towers plaza mall borough township
corp corporation inc ltd llc gmbh plc sarl limited holdings payable receivable helpdesk
finanzamt krankenkasse sparkasse stadtwerke versicherung servicio unidad
";

/// Given names that are also well-known places and, standing alone, mean the place more often
/// than a person in a chat: "We moved from Charlotte to Austin", "Is Sydney or Adelaide
/// better?". With a surname or a cue they still count as names.
pub(super) const PLACES: &str = "
adelaide alberta augusta austin carolina charlotte chelsea chester dallas darwin denver florence
florida georgia hamilton helena israel lyon milan odessa orlando paulo preston quincy raleigh
regina stanford sydney victoria
";

/// Common lower-case words of the languages our users write in, beyond the English ones of
/// [`super::NOT_NAMES`]: after a cue, a name in lower case or in capitals ends at the first of
/// them ("MY NAME IS ROBERT JOHNSON AND I NEED HELP", "ich bin lukas und"), and a cue followed
/// by one opens no name ("i am not sure", "my name is on the list"). Words that are also given
/// names (ben, jan, eva) are left out: a name must win there.
pub(super) const COMMON_WORDS: &str = "
am need needs needed help want wants wanted writing calling looking trying going just also
again really actually not never nothing something someone anyone everything else maybe okay
nice pleased happy glad sure fine sorry here there looking new old from regarding re about
concerning unable able afraid currently still already correct incorrect different wrong
right misspelled shown visible invalid empty blank required unique mandatory optional private
public important long short same unknown hidden stable critical pending active inactive
btw lol haha tho thx pls fyi asap
text field input obligatorio obligatoire obbligatorio pflichtfeld erforderlich requis requerido
verplicht wymagane
und oder aber nicht ich du er sie es wir ihr der die das dem den ein eine einen mit von zu
bei aus auf für ist bin bist sind hier auch noch schon gerade leider bitte danke
et ou mais ne pas je tu il elle nous vous les un une des avec pour sur dans est suis
o yo el los las una con por para en es soy estoy aquí
non io il lo gli con per è sono qui
en niet ik het een met voor op is hier
nie jestem tu och jag är inte ett med för på
";
