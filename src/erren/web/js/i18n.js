// zh-CN and English strings. `t("key", arg...)` fills {0}, {1}... ; the language is kept in
// localStorage and switched from the header.

/** @typedef {"zh"|"en"} Lang */

/** @type {Record<string, [string, string]>} key → [zh, en] */
const S = {
  title: ["二人麻将", "Two-player Mahjong"],
  lang_switch: ["English", "中文"],
  login: ["登录", "Log in"],
  register: ["注册", "Register"],
  guest: ["游客试玩", "Play as guest"],
  logout: ["退出", "Log out"],
  name: ["用户名", "Name"],
  password: ["密码（至少 8 位）", "Password (8+ characters)"],
  welcome_intro: ["登录或注册，也可以直接以游客身份开始。每位新玩家都有欢乐豆。", "Log in, register, or just start as a guest. Every new player gets beans."],
  beans: ["欢乐豆", "beans"],
  balance: ["欢乐豆 {0}", "{0} beans"],
  family: ["玩法", "Game"],
  rooms: ["场次", "Rooms"],
  stake: ["底注 {0}/番", "{0} per point"],
  stake_per: ["底注 {0}/{1}", "{0} per {1}"],
  entry: ["入场 {0}–{1}", "Entry {0}–{1}"],
  quick: ["快速匹配", "Quick match"],
  outside: ["豆数不在入场范围", "Your beans are outside the limits"],
  vs_computer: ["人机对战", "Play the computer"],
  vs_computer_d: ["电脑立即入座，只记分不输豆", "The computer sits down at once; score only"],
  level: ["电脑水平", "Computer level"],
  lv_novice: ["入门", "Beginner"],
  lv_normal: ["普通", "Normal"],
  lv_strong: ["高手", "Strong"],
  lv_master: ["大师", "Master"],
  lv_novice_d: ["随手出牌", "Plays casually"],
  lv_normal_d: ["讲究牌效", "Plays for speed"],
  lv_strong_d: ["会算分值", "Plays for value"],
  lv_master_d: ["深思熟虑", "Thinks longest"],
  computer_at: ["电脑·{0}", "Computer ({0})"],
  hint: ["提示", "Hint"],
  hint_title: ["高手建议的打法（只看你自己能看到的牌）", "What the expert would play (from what you can see)"],
  hint_none: ["现在没有需要你决定的事", "Nothing for you to decide now"],
  private: ["好友房", "Private table"],
  create_private: ["创建房间", "Create a table"],
  join_code: ["输入邀请码", "Invite code"],
  join: ["加入", "Join"],
  private_d: ["把邀请码发给朋友，只记分", "Send the code to a friend; score only"],
  history: ["我的牌局", "My games"],
  continue_game: ["你有一局正在进行", "You have a game in progress"],
  continue: ["继续", "Continue"],
  waiting_match: ["正在寻找对手…", "Looking for an opponent…"],
  search_no_show: ["对手没有来到牌桌，这一局已取消，谁也没有付豆。你已排回队首。", "Your opponent never came to the table, so the match was called off and nobody paid. You are back at the front of the queue."],
  search_lost: ["你离开得太久，排队的位置没有保留，已重新为你排队。", "You were away too long and lost your place in the queue; you are queued again."],
  cancel: ["取消", "Cancel"],
  nobody: ["暂时没有对手，请稍后再试", "Nobody came; try again later"],
  // table
  you: ["你", "You"],
  opponent: ["对手", "Opponent"],
  dealer: ["庄", "Dealer"],
  tiles_left: ["余 {0} 张", "{0} left"],
  hand_no: ["第 {0} 局", "Hand {0}"],
  round_wind: ["圈风", "Round"],
  wind_1: ["东", "East"],
  wind_2: ["南", "South"],
  wind_3: ["西", "West"],
  wind_4: ["北", "North"],
  trustee: ["托管", "Auto-play"],
  trustee_on: ["托管中", "Auto-playing"],
  ting_badge: ["听", "Ready"],
  your_turn: ["轮到你出牌", "Your turn: click a tile to discard"],
  your_claim: ["要这张牌吗？", "Claim this tile?"],
  their_turn: ["对手思考中", "Opponent's turn"],
  river_mine: ["你的弃牌", "Your discards"],
  river_opp: ["对手的弃牌", "Opponent's discards"],
  river_of: ["{0} 的弃牌", "Discards of {0}"],
  waiting_start: ["等待开局…", "Waiting for the hand to start…"],
  waiting_opponent: ["等待对手入座…", "Waiting for an opponent to sit down…"],
  invite_is: ["邀请码 {0}", "Invite code {0}"],
  leave: ["离开", "Leave"],
  leave_confirm: ["牌局进行中离开算逃跑，要付罚分。确定离开？", "Leaving during a hand is an escape and costs a penalty. Leave anyway?"],
  conn_ok: ["已连接", "Connected"],
  conn_wait: ["重连中…", "Reconnecting…"],
  conn_off: ["已断开", "Offline"],
  offline: ["对手掉线", "opponent offline"],
  closed: ["牌桌已关闭：{0}", "The table closed: {0}"],
  back_lobby: ["返回大厅", "Back to the lobby"],
  keys: ["快捷键：←→ 选牌，回车 出牌，H 胡，P 碰，C 吃，K 杠，T 听，空格 过，A 托管，? 提示，M 静音", "Keys: ←→ choose, Enter discard, H win, P pung, C chow, K kong, T ready, Space pass, A auto-play, ? hint, M mute"],
  sound_on: ["声音已开", "Sound on"],
  sound_off: ["已静音", "Sound off"],
  sound_toggle: ["静音 / 开声音", "Mute / unmute"],
  settings: ["设置", "Settings"],
  set_title: ["设置", "Settings"],
  set_lang: ["语言", "Language"],
  set_sound: ["声音", "Sound"],
  set_motion: ["动画", "Motion"],
  set_motion_system: ["跟随系统", "Follow the system"],
  set_motion_reduce: ["减少动画", "Reduce"],
  set_hints: ["听牌提示（所有玩法）", "Hints (every game)"],
  set_tiles: ["手牌大小", "Hand tile size"],
  set_tiles_small: ["小", "Small"],
  set_tiles_normal: ["标准", "Normal"],
  set_tiles_large: ["大", "Large"],
  set_contrast: ["高对比度牌面", "High-contrast tiles"],
  set_felt: ["桌面颜色", "Table colour"],
  set_felt_green: ["绿", "Green"],
  set_felt_blue: ["蓝", "Blue"],
  set_felt_brown: ["红棕", "Red-brown"],
  set_autowin: ["自动和（能和牌时立即和）", "Auto-win (claim a win at once)"],
  set_autowin_note: [
    "所有和法都算：胡、自摸、三金倒、抢金、游金胡；游金时就此和牌，不打金去双游。",
    "Every kind of win: on a discard, self-drawn, three golds, robbing the gold, swimming; it never throws the gold to swim on.",
  ],
  set_noclaims: ["不吃碰（只能吃、碰时自动过）", "No chow/pung (pass when only a chow or pung is offered)"],
  set_watch: ["谁可以观战我的牌桌", "Who may watch my tables"],
  set_watch_nobody: ["不允许", "Nobody"],
  set_watch_friends: ["好友", "Friends"],
  set_watch_everyone: ["所有人", "Everyone"],
  set_mutechat: ["屏蔽聊天（不显示任何人的快捷语和表情）", "Mute chat (show nobody's phrases or stickers)"],
  set_note: ["设置保存在这个浏览器里。", "Settings are kept in this browser."],
  set_note_account: ["设置随账号保存：在哪个浏览器登录都一样。", "Settings are kept with your account: the same in any browser you sign in on."],
  set_close: ["关闭", "Close"],
  choose: ["请选择", "Choose"],
  ting_pick: ["选择听牌时打出的牌", "Pick the tile to discard as you declare ready"],
  confirm: ["确认", "Confirm"],
  tile_given: ["已换出", "Given up"],
  tile_nth: ["第{0}张", "tile {0}"],
  ann_time: ["还剩 {0} 秒", "{0} seconds left"],
  ann_score: ["你的得分 {0}", "Your score {0}"],
  pung_offer_short: ["送刻", "Pung offered"],
  drawn_win: ["摸到这张牌：{0}？", "You drew this tile: {0}?"],
  opening_win: ["开局就能和：{0}？", "You can win at the opening: {0}?"],
  trustee_timeouts: ["你连续超时 {0} 次，已自动托管：系统替你出牌，关掉「托管」就能自己打", "You timed out {0} times in a row, so auto-play is on: switch it off to play yourself"],
  trustee_timeouts_any: ["你连续超时，已自动托管：系统替你出牌，关掉「托管」就能自己打", "You kept timing out, so auto-play is on: switch it off to play yourself"],
  trustee_is_on: ["托管中：系统替你出牌，关掉「托管」就能自己打", "Auto-play is on: the server plays for you; switch it off to play yourself"],
  trustee_off_now: ["托管已关闭：轮到你时自己出牌", "Auto-play is off: you play your own turns"],
  trustee_new_hand: ["新的一局开始，托管已关闭（托管只管一局）", "A new hand has started and auto-play is off (it lasts one hand)"],
  // actions
  a_hu: ["胡", "Win"],
  a_zimo: ["自摸", "Self-draw win"],
  a_peng: ["碰", "Pung"],
  a_chi: ["吃", "Chow"],
  a_gang: ["杠", "Kong"],
  a_ting: ["听", "Ready"],
  a_pass: ["过", "Pass"],
  // events
  e_discard: ["{0} 打出", "{0} discarded"],
  e_ting: ["{0} 报听，打出", "{0} declared ready, discarding"],
  e_chi: ["{0} 吃", "{0} chowed"],
  e_peng: ["{0} 碰", "{0} punged"],
  e_gang: ["{0} 杠", "{0} konged"],
  e_flower: ["{0} 补花", "{0} set a flower aside"],
  e_draw: ["{0} 摸牌", "{0} drew"],
  e_pass: ["{0} 过", "{0} passed"],
  e_timeout: ["{0} 超时，系统代打", "{0} timed out; the server played"],
  e_trustee: ["{0} {1}托管", "{0} switched auto-play {1}"],
  e_on: ["开启", "on"],
  e_off: ["取消", "off"],
  e_shuffle: ["洗牌（{1} 张）", "The wall is shuffled ({1} tiles)"],
  e_dice: ["掷骰 {1}", "Dice {1}"],
  e_deal: ["{0} 起牌", "{0} was dealt"],
  e_hu: ["{0} 和牌", "{0} won on"],
  e_zimo: ["{0} 自摸", "{0} won by self-draw on"],
  e_huangzhuang: ["流局", "Nobody won"],
  e_escape: ["{0} 逃跑", "{0} left the hand"],
  e_end: ["本局结束", "The hand is over"],
  // settlement
  s_win: ["你赢了！", "You win!"],
  s_lose: ["对手胡牌", "Your opponent wins"],
  s_draw: ["荒庄 · 流局", "Exhaustive draw"],
  s_abort: ["牌局中止（逃跑）", "Hand aborted (escape)"],
  s_fans: ["番种", "Patterns"],
  s_total: ["合计", "Total"],
  s_h_name: ["番种", "Pattern"],
  s_h_alt: ["", "Chinese"],
  s_h_value: ["分值", "Value"],
  s_h_sub: ["小计", "Subtotal"],
  s_steps: ["计算步骤", "How it adds up"],
  s_points: ["得分", "Points"],
  s_beans: ["欢乐豆", "Beans"],
  s_score_only: ["只记分", "score only"],
  s_beans_hidden: ["仅对局双方可见", "players only"],
  s_next: ["下一局", "Next hand"],
  s_replay: ["回放本局", "Replay this hand"],
  s_waiting: ["等待对手准备…", "Waiting for your opponent…"],
  s_hover: ["把鼠标移到（或点一下）番种上，对应的牌会高亮", "Hover over (or tap) a pattern to light up its tiles"],
  s_type: ["胡法", "Win type"],
  how_zimo: ["自摸", "self-drawn"],
  how_discard: ["点和", "on a discard"],
  how_robbing: ["抢杠和", "robbing the kong"],
  s_title: ["结算", "Settlement"],
  s_hands: ["双方手牌", "Both hands"],
  s_ready: ["听牌", "Ready"],
  s_not_ready: ["未听", "Not ready"],
  s_amounts: ["本局得失", "What each player received"],
  s_player: ["玩家", "Player"],
  s_again: ["再找对手", "Find another game"],
  // replays
  r_title: ["牌局回放", "Replay"],
  r_history: ["我的牌局", "My games"],
  r_none: ["还没有打完的牌局", "No finished games yet"],
  r_open: ["回放", "Replay"],
  r_step: ["第 {0}/{1} 步", "Step {0}/{1}"],
  r_first: ["第一步", "First step"],
  r_prev: ["上一步（←）", "Back (←)"],
  r_next: ["下一步（→）", "Next (→)"],
  r_last: ["最后一步", "Last step"],
  r_step_label: ["步数", "Step"],
  r_play: ["播放", "Play"],
  r_pause: ["暂停", "Pause"],
  r_speed: ["速度", "Speed"],
  r_share: ["复制分享链接", "Copy the share link"],
  r_copied: ["已复制链接", "Link copied"],
  r_missing: ["这局还没有结束或不存在", "This game is not finished or does not exist"],
  r_download: ["下载记录", "Download log"],
  r_dl_mjai: ["mjai 格式的完整记录（可用 erren import 导回）", "The full mjai log (erren import reads it back)"],
  r_dl_erren: ["erren 牌谱（JSON）", "The erren record (JSON)"],
  h_win_me: ["你胡牌（{0}）", "You won ({0})"],
  h_win_opp: ["对手胡牌（{0}）", "Your opponent won ({0})"],
  h_draw: ["荒庄 · 流局", "Exhaustive draw"],
  h_abort_me: ["你中途逃跑", "You left the hand (an escape)"],
  h_abort_opp: ["对手中途逃跑", "Your opponent left the hand (an escape)"],
  h_called_off: ["牌局取消，谁都不扣豆", "Called off; nobody paid"],
  h_points: ["{0} 分", "{0} points"],
  h_beans: ["{0} 欢乐豆", "{0} beans"],
  h_ended: ["已结束", "Finished"],
  // connection, leaving, closed tables, accounts, relief (issue 11)
  conn_lost: ["连接中断，正在重连…", "Connection lost, reconnecting…"],
  conn_resync: ["正在同步牌局…", "Catching up with the table…"],
  conn_replaced: ["已在别处打开", "Opened elsewhere"],
  m_discard: ["打出", "Discard"],
  move_kept: ["你的操作「{0}」已保留：重连后如果仍然可行，会自动发出。", "Your move “{0}” is kept: it is sent after reconnecting if it is still legal."],
  move_sent: ["已在重连后发出：{0}", "Sent after reconnecting: {0}"],
  move_done: ["已打出：{0}", "Played: {0}"],
  move_dropped: ["没有打出：{0}（断线期间牌局已继续）", "Not played: {0} (the hand moved on while you were offline)"],
  replaced: ["已在别处打开", "Opened in another tab"],
  replaced_d: ["你的账号在另一个标签页或设备上打开了这张牌桌，这里不再连接。", "Your account opened this table in another tab or on another device; this tab no longer connects."],
  replaced_here: ["在这里继续", "Play here instead"],
  tier_novice: ["新手场", "Novice room"],
  tier_normal: ["普通场", "Normal room"],
  tier_junior: ["初级场", "Junior room"],
  tier_intermediate: ["中级场", "Intermediate room"],
  tier_senior: ["高级场", "Senior room"],
  room_other: ["豆子场", "Bean room"],
  computer: ["电脑", "Computer"],
  guest_name: ["游客 {0}", "Guest {0}"],
  seat_n: ["{0} 号位", "Seat {0}"],
  leave_title: ["离开牌桌？", "Leave the table?"],
  leave_title_running: ["牌局进行中，确定离开？", "A hand is running. Leave?"],
  leave_free: ["现在没有进行中的牌局，离开不花任何欢乐豆，也不扣分。", "No hand is running: leaving now costs nothing."],
  leave_beans: ["现在离开算逃跑：你要付给对手 {0} 欢乐豆（{1} 分 × 底注 {2}，最多付到你的余额为止）。", "Leaving now is an escape: you pay your opponent {0} beans ({1} points × the stake {2}, at most your balance)."],
  leave_beans_capped: ["现在离开算逃跑：罚 {1} 分 × 底注 {2} = {3} 欢乐豆，以你的余额为限，你要付给对手 {0} 欢乐豆（全部余额）。", "Leaving now is an escape: {1} points × the stake {2} = {3} beans, limited to your balance, so you pay your opponent {0} beans (all you have)."],
  leave_new: ["现在离开算逃跑：你还是新玩家（再打完 {0} 局欢乐豆场牌局为止），逃跑不扣欢乐豆，但本局记你输，等级分也会下降。", "Leaving now is an escape: you are still a new player (for {0} more bean-room hands played to the end), so it costs you no beans, but you lose the hand and rating."],
  leave_points: ["现在离开算逃跑：本局记你输 {0} 分（只记分的牌桌，不涉及欢乐豆）。", "Leaving now is an escape: you lose {0} points for the hand (a score-only table: no beans)."],
  leave_escape: ["逃跑离开", "Escape and leave"],
  stay: ["留下", "Stay"],
  closed_title: ["牌桌已关闭", "The table closed"],
  closed_left: ["对手离开了牌桌。", "Your opponent left the table."],
  closed_left_me: ["你离开了牌桌。", "You left the table."],
  closed_escaped: ["对手在牌局中离开，本局按逃跑结算。", "Your opponent left during the hand; it was settled as an escape."],
  closed_escaped_me: ["你在牌局中离开，本局按逃跑结算。", "You left during the hand; it was settled as an escape."],
  closed_not_ready: ["对手没有及时准备下一局。", "Your opponent was not ready for the next hand in time."],
  closed_not_ready_me: ["你没有及时准备下一局。", "You were not ready for the next hand in time."],
  closed_above_entry: ["你的欢乐豆 {0} 不在{1}的入场范围 {2}–{3} 之内。", "Your {0} beans are outside the limits of {1} ({2}–{3})."],
  closed_below_entry: ["你的欢乐豆 {0} 不在{1}的入场范围 {2}–{3} 之内。", "Your {0} beans are outside the limits of {1} ({2}–{3})."],
  closed_opponent_below_entry: ["对手的欢乐豆不在本场次的入场范围之内。", "Your opponent's beans are outside this room's limits."],
  closed_idle: ["牌桌长时间无人操作，已关闭。", "Nobody played at this table for a long time."],
  closed_no_show: ["对手没有来到牌桌，这一局已取消，谁也没有付豆。", "Your opponent never came to the table, so the match was called off and nobody paid."],
  closed_called_off: ["服务器重启后没有人回到这一局：牌局取消，谁都不扣豆。", "After a server restart nobody came back to this hand: it was called off and nobody pays."],
  closed_can_enter: ["你还可以进入这些场次：", "Rooms you can still enter:"],
  closed_no_room: ["你现在的欢乐豆进不了任何场次。", "No room admits your beans now."],
  account_needed: ["豆子场需要注册账号。游客可以和电脑对战、开好友房（只记分）。", "Bean rooms need a registered account. Guests can play the computer and private tables (score only)."],
  account_register: ["注册账号", "Register an account"],
  room_account: ["需要注册账号", "Account needed"],
  register_title: ["注册账号", "Register an account"],
  relief_d: ["欢乐豆少于 {0} 时进不了任何场次。注册玩家每天（UTC）可以领一次救济豆，补足到 2,000。", "Below {0} beans no room admits you. A registered player may claim relief once a day (UTC): it tops the balance up to 2,000."],
  relief_claim: ["领取救济豆", "Claim relief beans"],
  relief_granted: ["领到 {0} 欢乐豆，现在有 {1}。", "You received {0} beans; your balance is {1}."],
  relief_not_needed: ["你的欢乐豆不少于 1,000，不需要救济。", "You have 1,000 beans or more: no relief needed."],
  relief_already_claimed: ["今天已经领过救济豆了，明天（UTC）再来。", "You already claimed relief today; come back tomorrow (UTC)."],
  relief_guest: ["游客不能领取救济豆，请先注册。", "Guests cannot claim relief; register first."],
  // errors by their stable code, {name} filled from the error's params (docs/protocol.md, "Codes")
  err_auth: ["请先登录", "Log in first"],
  "err_logged-out": ["这个会话已经退出，请重新登录", "This session was logged out; log in again"],
  "err_wrong-password": ["用户名或密码不对", "Wrong name or password"],
  "err_bad-account": ["用户名须为 2–16 个可见字符，密码至少 8 位", "A name is 2–16 visible characters; a password at least 8"],
  "err_name-taken": ["这个用户名已经有人用了", "That name is taken"],
  "err_name-confusable": ["这个用户名和已有的用户名太像了", "That name looks too much like an existing one"],
  err_throttled: ["密码错误次数太多，请 {retry_after} 秒后再试", "Too many wrong passwords; try again in {retry_after} s"],
  "err_register-limit": ["这个网络地址注册的新账号太多了，请 {retry_after} 秒后再试", "Too many new accounts from this address; try again in {retry_after} s"],
  "err_guest-limit": ["这个网络地址创建的游客太多了，请 {retry_after} 秒后再试", "Too many new guests from this address; try again in {retry_after} s"],
  "err_connection-limit": ["这个网络地址打开的连接太多了，请 {retry_after} 秒后再试", "Too many connections from this address; try again in {retry_after} s"],
  "err_server-full": ["服务器连接已满，请 {retry_after} 秒后再试", "The server is full; try again in {retry_after} s"],
  "err_account-needed": ["豆子场需要注册账号", "Bean rooms need a registered account"],
  "err_no-player": ["没有这个名字或好友码的注册玩家", "No registered player has that name or friend code"],
  "err_friend-self": ["不能加自己为好友", "You can't add yourself"],
  "err_friend-already": ["你们已经是好友了", "You are already friends"],
  "err_friend-blocked": ["无法与该玩家互动（存在屏蔽）", "You can't do that with this player (blocked)"],
  "err_friend-limit": ["已达上限（{limit}）", "The limit is reached ({limit})"],
  "err_friend-throttled": ["操作太频繁，请 {retry_after} 秒后再试", "Too many requests; try again in {retry_after} s"],
  "err_no-request": ["没有这条好友申请", "No such friend request"],
  "err_not-friends": ["你们还不是好友", "You are not friends"],
  friends: ["好友", "Friends"],
  fr_title: ["好友", "Friends"],
  fr_guest: ["好友需要注册账号", "Friends need a registered account"],
  fr_code: ["我的好友码", "My friend code"],
  fr_who: ["名字或好友码", "Name or code"],
  fr_add: ["加好友", "Add friend"],
  fr_limits: ["最多 {0} 位好友，{1} 条待处理的申请", "Up to {0} friends and {1} requests waiting"],
  fr_sent: ["已向 {0} 发送好友申请", "Friend request sent to {0}"],
  fr_now_friends: ["你和 {0} 已成为好友", "You and {0} are friends now"],
  fr_received: ["好友申请", "Friend requests"],
  fr_friends: ["我的好友", "My friends"],
  fr_none: ["还没有好友：输入名字或好友码添加", "No friends yet: add one by name or code"],
  fr_sent_title: ["已发送的申请", "Requests sent"],
  fr_waiting: ["等待回复", "Waiting"],
  fr_recent: ["最近的对手", "Recent opponents"],
  fr_no_recent: ["还没有和注册玩家对局过", "No games with registered players yet"],
  fr_is_friend: ["已是好友", "Friends"],
  fr_blocked: ["已屏蔽", "Blocked"],
  fr_accept: ["接受", "Accept"],
  fr_refuse: ["拒绝", "Refuse"],
  fr_decline: ["拒绝", "Decline"],
  fr_remove: ["删除", "Remove"],
  fr_block: ["屏蔽", "Block"],
  fr_unblock: ["解除屏蔽", "Unblock"],
  fr_invite: ["邀请", "Invite"],
  fr_room: ["邀请到的场次", "Room to invite to"],
  fr_invite_sent: ["已邀请 {0}", "{0} is invited"],
  fr_invited_title: ["好友邀请", "A friend's invite"],
  fr_more_invites: ["之后还有 {0} 个邀请", "{0} more after this one"],
  fr_invited: ["{0} 邀请你到 {1}", "{0} invites you to {1}"],
  fr_declined: ["{0} 拒绝了邀请", "{0} declined the invite"],
  fr_invite_over: ["{0} 的牌桌已不再等你", "{0}'s table no longer waits for you"],
  fr_offline: ["离线", "Offline"],
  fr_lobby: ["在大厅", "In the lobby"],
  fr_at_table: ["在牌桌（{0}）", "At a table ({0})"],
  fr_watching: ["观战中", "Watching"],
  fr_watch: ["观战", "Watch"],
  "err_not-needed": ["你的欢乐豆不少于 1,000，不需要救济", "You have 1,000 beans or more: no relief needed"],
  "err_already-claimed": ["今天已经领过救济豆了", "You already claimed relief today"],
  err_guest: ["游客不能这样做，请先注册", "Guests cannot do that; register first"],
  "err_bad-json": ["请求的格式不对", "The request is not valid JSON"],
  "err_too-deep": ["消息嵌套太深", "The message is nested too deeply"],
  "err_bad-unicode": ["消息里有无效的字符", "The message holds text that is not valid Unicode"],
  "err_bad-message": ["消息的格式不对", "The message is malformed"],
  "err_out-of-range": ["消息里的数字超出范围", "A number in the message is out of range"],
  "err_unknown-type": ["服务器不认识这种消息", "The server does not know that message"],
  "err_too-large": ["请求太大了", "The request is too large"],
  err_invalid: ["请求的内容不对", "The request has a wrong field"],
  "err_not-found": ["找不到这个页面", "Not found"],
  "err_method-not-allowed": ["不支持这个请求", "That request is not allowed"],
  "err_http-error": ["请求没有成功（{status}）", "The request failed ({status})"],
  "err_no-game": ["这局还没有结束或不存在", "This game is not finished or does not exist"],
  "err_not-finished": ["这局还没有结束", "This game is not finished yet"],
  "err_no-table": ["这张牌桌已经不在了", "That table is gone"],
  "err_not-replayable": ["这局的记录无法回放", "This record cannot be replayed"],
  "err_not-waiting": ["你没有在等待快速匹配", "You are not waiting for a quick match"],
  "err_search-lost": ["排队的位置没有保留，请重新匹配", "Your place in the queue was not kept; start a new quick match"],
  "err_no-show": ["对手没有来到牌桌，这一局已取消", "Your opponent never came to the table; the match was called off"],
  err_cancelled: ["快速匹配已取消", "The quick match was cancelled"],
  err_seated: ["你已经在另一张牌桌入座了", "You already have a seat at another table"],
  "err_game-kept": ["你有一局未完成的牌局，恢复或取消之前不能入座", "Your unfinished game is kept until it is restored or called off"],
  "err_seat-pending": ["你的另一个入座请求正在处理", "Another request of yours is being seated"],
  err_waiting: ["你已经在等待快速匹配", "You are already waiting for a quick match"],
  "err_no-room": ["没有这个场次", "There is no such room"],
  "err_no-family": ["没有这种玩法", "There is no such game"],
  "err_no-season": ["这个赛季还没有开始", "That season has not begun"],
  "err_bad-options": ["牌桌的设置不对", "The table's options are not valid"],
  "err_no-bot": ["没有这个电脑", "There is no such computer player"],
  "err_no-level": ["没有这个电脑水平", "There is no such computer level"],
  "err_level-and-bot": ["请只选择电脑水平", "Choose the computer by its level only"],
  "err_no-opponent": ["暂时没有对手，请稍后再试", "Nobody came; try again later"],
  "err_below-entry": ["你的欢乐豆 {balance} 低于这个场次的入场下限 {entry_min}", "Your {balance} beans are below this room's entry minimum of {entry_min}"],
  "err_above-entry": ["你的欢乐豆 {balance} 高于这个场次的入场上限 {entry_max}", "Your {balance} beans are above this room's entry maximum of {entry_max}"],
  "err_table-full": ["这张牌桌已经满了", "That table is full"],
  "err_no-invite": ["没有这个邀请码的牌桌", "No open table has that invite code"],
  "err_bad-stake": ["押分须为 100 的 1–10 倍，且不超过本金", "The stake is 1–10 × 100, within your bankroll"],
  "err_campaign-unfinished": ["关卡模式还没有结束：继续或放弃", "A campaign is unfinished: continue it or abandon it"],
  "err_no-campaign": ["还没有开始关卡模式", "No campaign has been started"],
  "err_campaign-over": ["这一轮关卡已经结束，不能再开局", "This campaign is over: no hand can start"],
  "err_busy": ["服务器正忙，请稍后再试", "The server is busy; try again in a moment"],
  "err_too-many-replays": ["回放打开得太频繁了，请稍后再试", "Too many replays opened from your address; try again in a minute"],
  "err_store-unavailable": ["服务器暂时无法保存：什么都没有改变，请稍后再试", "The server cannot save right now: nothing changed, try again later"],
  "err_too-many-connections": ["这个账号打开的连接太多了，请关掉几个标签页", "Too many connections for this account; close some tabs"],
  "err_already-authenticated": ["这个连接已经登录", "This connection is already logged in"],
  "err_rate-limited": ["操作太快了，多出来的被忽略", "Too many messages; the excess is ignored"],
  err_flood: ["操作太快了，连接已断开", "Too many messages; the connection was closed"],
  "err_not-seated": ["你不在这张牌桌上", "You have no seat at that table"],
  "err_bad-action": ["服务器看不懂这一步", "The server cannot read that move"],
  "err_not-your-seat": ["这不是你的座位", "That is not your seat"],
  err_stale: ["牌局已经往前走了，这一步没有发出", "The hand moved on; that move was not made"],
  "err_no-hand": ["现在没有进行中的牌局", "No hand is running"],
  "err_hand-running": ["牌局正在进行", "A hand is running"],
  "err_trustee-limit": ["这一局托管开关的次数已经用完（{limit} 次）", "Auto-play can be switched {limit} times per hand; no more this hand"],
  "err_store-retrying": ["服务器暂时无法保存牌局：牌局暂停，正在重试，什么都不会丢。", "The server cannot save the game right now: the hand waits while it retries; nothing is lost."],
  // the engine's refusals of a move (params.action: the move)
  "err_out-of-turn": ["还没轮到你", "It is not your turn"],
  "err_claim-window-closed": ["现在没有可以吃、碰、杠或胡的牌", "No claim is open now"],
  "err_claim-or-pass": ["现在只能吃、碰、杠、胡或过", "You may only claim or pass now"],
  "err_tile-not-held": ["你手里没有这张牌", "You do not hold that tile"],
  "err_not-a-win": ["这手牌还不能胡", "That hand is not a win"],
  "err_ting-locked": ["报听后不能换牌，也不能吃碰", "After declaring ready the hand is locked"],
  "err_ting-disabled": ["这张牌桌不能报听", "Declaring ready is off at this table"],
  "err_not-ready": ["打出这张牌后还没有听牌", "That discard would not leave a ready hand"],
  "err_discard-not-allowed": ["现在不能打这张牌", "That discard is not allowed now"],
  "err_discard-after-claim": ["吃碰之后只能打牌", "After a chow or pung only a discard is allowed"],
  "err_wall-empty": ["牌墙已经摸完了", "The wall is empty"],
  "err_kong-needs-four": ["杠需要四张相同的牌", "A kong needs four of the tile"],
  "err_kong-needs-peng": ["加杠需要先碰出这张牌", "An added kong needs an exposed pung of the tile"],
  "err_peng-needs-pair": ["碰需要手里有一对", "A pung needs a pair in hand"],
  "err_chi-not-a-run": ["这几张牌吃不成顺子", "Those tiles do not make a chow"],
  "err_not-now": ["现在不能这样走", "That move is not one of the choices now"],
  "err_hand-over": ["这一局已经结束", "The hand is over"],
  "err_deal-not-done": ["还没有发完牌", "The deal is not done yet"],
  "err_no-such-seat": ["没有这个座位", "There is no such seat"],
  "err_chance-out-of-order": ["牌局记录的顺序不对", "The record's chance moves are out of order"],
  "err_no-chance-pending": ["牌局记录的顺序不对", "No chance move is due in the record"],
  "err_not-a-seed": ["牌局记录不对：不是种子", "The record is wrong: not a seed"],
  "err_not-a-shuffle": ["牌局记录不对：不是洗牌", "The record is wrong: not a shuffle"],
  "err_not-dice": ["牌局记录不对：不是掷骰", "The record is wrong: not dice"],
  "err_not-a-system-action": ["这一步不是系统操作", "That is not a move of the table"],
  err_replaced: ["已在别处打开", "Opened in another tab"],
  "err_store-ok": ["服务器已恢复保存", "The server saves again"],
  "err_system-action": ["这一步由系统处理", "The table makes that move, not a player"],
  err_illegal: ["这一步现在不合规则", "That move is not legal now"],
  err_rule: ["这一步现在不合规则", "That move is not legal now"],
  err_unknown: ["出错了（{0}）", "Something went wrong ({0})"],
  err_network: ["连不上服务器，请稍后再试", "Could not reach the server; try again later"],
  store_retrying: ["服务器暂时无法保存牌局：牌局暂停，正在重试，什么都不会丢。", "The server cannot save the game right now: the hand waits while it retries; nothing is lost."],
  running: ["进行中", "running"],
  // --- hints ---
  hn_left: ["剩{0}张", "{0} left"],
  hn_total: ["共{0}张", "{0} in all"],
  hn_ready: ["打这张听：", "Discard for ready on:"],
  hn_waiting: ["听牌：", "Waiting on:"],
  hn_switch: ["听牌提示", "Hints"],
  hn_switch_title: ["听牌提示和提示按钮（这一玩法记住你的选择）", "Ready hints and the hint button (remembered for this game)"],
  hn_r_win: ["可以和了", "you can win"],
  hn_r_ready: ["听{0}种，还剩{1}张", "ready on {0} kinds, {1} left"],
  hn_r_ting: ["报听：听{0}种，还剩{1}张", "declare ready: {0} kinds, {1} left"],
  hn_r_keeps: ["留下{0}张有用的牌（{1}种，{2}向听）", "keeps {0} tiles that help ({1} kinds, {2} from ready)"],
  hn_r_claim_ready: ["鸣牌后就听牌", "ready after the claim"],
  hn_r_claim: ["鸣牌后{0}向听，更近听牌", "{0} from ready after the claim: closer"],
  hn_r_pass: ["过：鸣牌不会让牌更好", "pass: no claim makes the hand better"],
  hn_r_kong: ["开杠不损失牌效", "the kong costs nothing"],
  hn_r_other: ["高手的选择", "the expert's choice"],
  // --- drills (何切る: drills.js) ---
  dr_link: ["何切る练习", "Discard drills"],
  dr_title: ["何切る：打哪张？", "Drills: what to discard"],
  dr_intro: ["牌局中的一个决定：点你要打的那张牌，再看大师怎么打、你的选择期望损失多少。题目来自模拟牌局，只给出你当时能看到的牌。", "A decision from a hand: tap the tile you would discard, then see what the Master throws and what your choice is expected to cost. The positions come from simulated hands and show only what you could see then."],
  dr_pick: ["轮到你出牌：打哪张？", "Your turn: which tile do you discard?"],
  dr_seat: ["{0}号位", "Seat {0}"],
  dr_right: ["答对了：和大师打的一样", "Right: the Master discards the same tile"],
  dr_wrong: ["大师会打另一张", "The Master would discard another tile"],
  dr_master: ["大师：打", "Master: discard"],
  dr_yours: ["你：打", "You: discard"],
  dr_why: ["理由：", "Why: "],
  dr_loss: ["你这张的期望损失：{0} {1}", "Expected loss of your tile: {0} {1}"],
  dr_tile: ["牌", "Tile"],
  dr_ev: ["期望得分", "Expected points"],
  dr_lost: ["损失", "Loss"],
  dr_method: ["期望得分：从你能看到的牌重建 {0} 个牌局，双方按普通水平打到这一局结束，取平均。", "Expected points: the mean over {0} deals rebuilt from what you could see, both seats played to the end of the hand at Normal level."],
  dr_next: ["下一题", "Next"],
  dr_score: ["本次 {0} 题，答对 {1} 题，期望损失合计 {2}", "{1} of {0} right this session, {2} expected loss in all"],
  dr_mine: ["我的错题", "My mistakes"],
  dr_mine_intro: ["你自己牌局里代价最大的出牌：点你要打的那张牌，再看大师怎么打。每局结束复盘后，损失较大的打牌会自动加入这里。", "Your own costliest discards: tap the tile you would discard, then see what the Master throws. After each hand is reviewed, your costlier discards are added here."],
  dr_mine_none: ["这个玩法你还没有错题", "No mistakes of yours in this game yet"],
  dr_mine_guest: ["“我的错题”只给注册玩家：注册后，你每手牌的复盘会把代价最大的出牌变成练习题。现在做的是题库的题。", "“My mistakes” are for registered players: once you register, the costliest discards of your reviewed hands become your drills. These are the corpus's puzzles."],
  dr_mine_how: ["去打几局吧：每局结束后都会复盘你的出牌，损失较大的几次打牌会变成你在这里的练习题。", "Play some hands: each one is reviewed after it ends, and your costliest discards become your drills here."],
  dr_play: ["去打牌", "Play"],
  dr_corpus: ["做题库的题", "Practise the corpus"],
  dr_source: ["出自牌局 #{0}，第 {1} 步。", "From game #{0}, step {1}."],
  dr_replay: ["看回放和复盘", "Replay and review"],
  "err_no-drills": ["这个玩法还没有练习题", "No drills for this game yet"],
  "err_no-drill": ["没有这道题", "No such drill"],
  "err_not-a-choice": ["这张牌现在不能打", "That tile cannot be discarded here"],
  "err_too-many-drills": ["请求太频繁，请 {retry_after} 秒后再试", "Too many requests; try again in {retry_after} s"],
  rv_ask: ["复盘：大师会怎么打", "Review: what the Master would have done"],
  rv_wait: ["大师复盘中…", "The Master is reviewing…"],
  rv_title: ["大师复盘", "Review by the Master"],
  rv_sum: ["一致 {0}%（{1}/{2}）· 恶手 {3} · 期望损失 {4}", "Match {0}% ({1}/{2}) · bad moves {3} · expected loss {4}"],
  rv_session: ["本桌 {0} 手：{1}", "This table, {0} hands: {1}"],
  rv_points: ["分", "points"],
  rv_nothing: ["这一局你没有自己做过决定（托管、超时和报听后的出牌不算）", "You made no decision yourself this hand (auto-play, timeouts and the frozen hand after declaring ready do not count)"],
  rv_differ: ["和大师不同：{0} 手", "Unlike the Master: {0}"],
  rv_all_same: ["每一手都和大师一样", "Every decision as the Master would have made it"],
  rv_show_all: ["显示全部（{0} 手）", "Show all ({0})"],
  rv_only_differ: ["只看不同（{0} 手）", "Only those unlike the Master ({0})"],
  rv_of: ["复盘：{0}", "Review: {0}"],
  rv_you: ["你", "You"],
  rv_master: ["大师", "Master"],
  rv_throw: ["打", "Discard"],
  rv_ting: ["报听打", "Declare ready, discard"],
  rv_same: ["一致", "same"],
  rv_no_loss: ["无损失", "no loss"],
  rv_jump: ["跳到这一步", "Jump to this move"],
  rv_share: ["分享复盘", "Share the review"],
  rv_open: ["查看复盘", "Open the review"],
  rv_seat: ["复盘座位", "Review of"],
  rv_none: ["不看复盘", "no review"],
  rv_loading: ["大师复盘中…", "The Master is reviewing…"],
  rv_c_efficiency: ["牌效", "efficiency"],
  rv_c_value: ["打点", "hand value"],
  rv_c_defence: ["防守", "defence"],
  rv_c_claim: ["吃碰杠", "claim"],
  rv_c_ting: ["报听时机", "declaring ready"],
  rv_c_win: ["和牌与否", "win or not"],
  rv_c_family: ["本玩法特有", "family move"],
  rv_hs_title: ["看牌复盘（事后诸葛）", "With the tiles known (hindsight)"],
  rv_hs_note: ["这是事后诸葛：看过整副牌墙和对手的打法才找得到，不是建议——打牌时谁也不知道这些。", "This is hindsight, not advice: it was found with the whole wall and the opponent's play revealed, which nobody knows while playing."],
  rv_hs_points: ["实际 {0} · 最好的打法 {1}", "Actual {0} · best line {1}"],
  rv_hs_none: ["本手已是最好结果", "Nothing would have done better"],
  rv_hs_from: ["第 {0} 步起：", "From step {0}:"],
  rv_hs_cut: ["（在限定的步数内搜索，未穷尽所有打法）", "(searched within a bounded number of steps, not every line)"],
  "err_too-many-reviews": ["复盘请求太多了，请稍后再试", "Too many new reviews from your address; try again shortly"],
  "err_not-reviewable": ["这一局无法复盘", "This hand cannot be reviewed"],
  "err_game-running": ["这局还没有结束，还不能下载记录", "The game is not finished: no log yet"],
  "err_bad-seat": ["完整牌谱不能只选一个座位", "An erren record is whole: no seat can be chosen"],
  "err_no-review": ["一局结束后才能复盘", "The review is ready once a hand is over"],
  "err_chat-too-fast": ["说话太快了，每 3 秒只能发一次", "One chat message every 3 seconds; wait a moment"],
  "err_unknown-chat": ["没有这条快捷语或表情", "No such phrase or sticker"],
  "err_chat-blocked": ["你们之间有屏蔽，这一桌不能聊天", "A block stands between you two: no chat at this table"],
  "err_watch-refused": ["不能观战这张牌桌", "You may not watch this table"],
  watch_title: ["观战", "Watching"],
  watch_live: ["实时观战", "Live"],
  watch_delay: ["观战延迟 {0} 步（防止场外指导）", "{0} moves behind the game (so nobody can coach a player)"],
  watch_count: ["{0} 人观战", "{0} watching"],
  watch_waiting: ["等待这一局开始……", "Waiting for the hand…"],
  watch_won: ["{0} 和牌", "{0} won"],
  watch_why_no_table: ["这张牌桌不在了", "That table is gone"],
  watch_why_seated: ["你在这张牌桌上，直接进入牌桌吧", "You play at this table: join it instead"],
  watch_why_nobody: ["这张牌桌的玩家不允许观战", "A player of this table lets nobody watch"],
  watch_why_friends: ["这张牌桌的玩家只允许好友观战", "A player of this table lets only his friends watch"],
  watch_why_guest: ["游客只能观战允许所有人观战的牌桌", "Guests may watch only tables open to everyone"],
  watch_why_blocked: ["你不能观战这张牌桌", "You may not watch this table"],
  "err_watch-full": ["这张牌桌的观战人数已满（最多{limit}人）", "This table has all the spectators it admits ({limit})"],
  "err_watch-elsewhere": ["这张牌桌在另一台服务器上，暂不能跨服观战", "This table is played on another server node; it cannot be watched from here yet"],
  // --- quick chat (chat.js): phrases, stickers ---
  chat_open: ["快捷语和表情", "Quick chat and stickers"],
  chat_title: ["快捷语", "Quick chat"],
  chat_wait: ["稍等几秒再发", "Wait a few seconds"],
  chat_phrases: ["快捷语", "Phrases"],
  chat_stickers: ["表情", "Stickers"],
  chat_mute_opp: ["屏蔽对手", "Mute opponent"],
  chat_unmute_opp: ["取消屏蔽", "Unmute"],
  chat_all_muted: ["你在设置里屏蔽了聊天：看不到对手的消息", "Chat is muted in your settings: you see nobody's messages"],
  chat_hurry: ["快点吧，等得花儿都谢了", "Hurry up please"],
  "chat_nice-play": ["你的牌打得也太好了", "Nice play"],
  chat_dropped: ["不好意思，刚才掉线了", "Sorry, I dropped"],
  "chat_one-more": ["再来一局", "One more?"],
  "chat_great-hand": ["好牌！", "Great hand!"],
  chat_thanks: ["谢谢", "Thanks"],
  chat_hello: ["你好，请多关照", "Hello, have a good game"],
  "chat_good-game": ["打得不错，下次再战", "Good game"],
  "chat_so-close": ["就差一张啊", "So close!"],
  chat_lucky: ["运气真好", "Lucky you"],
  chat_thinking: ["让我想想", "Let me think"],
  chat_bye: ["我先走了，再见", "Got to go, bye"],
  stk_smile: ["微笑", "Smile"],
  stk_laugh: ["大笑", "Laugh"],
  stk_cry: ["哭", "Cry"],
  stk_angry: ["生气", "Angry"],
  stk_shock: ["吃惊", "Shocked"],
  stk_cool: ["酷", "Cool"],
  stk_sleepy: ["困了", "Sleepy"],
  stk_sweat: ["流汗", "Sweat"],
  stk_love: ["喜欢", "Love it"],
  stk_thumbs: ["点赞", "Thumbs up"],
  stk_tea: ["喝茶", "Tea"],
  stk_flower: ["送花", "Flower"],
  error: ["出错了：{0}", "Error: {0}"],
  // --- rules ---
  rules_rules: ["规则", "Rules"],
  rules_title: ["规则说明", "Rules"],
  rules_close: ["关闭", "Close"],
  rules_search: ["搜索番种：名称、编号或番数", "Search: name, id or value"],
  rules_value: ["番数", "Value"],
  rules_example: ["例", "Example"],
  rules_no_example: ["（无例：一门花色无法组成）", "(no example: cannot be made with one suit)"],
  rules_none: ["没有符合的番种", "Nothing matches"],
  rules_win_types: ["和法与倍数", "Win types and multipliers"],
  rules_capped: ["（封顶 {0} {1}）", " (capped at {0} {1})"],
  rules_h_name: ["名称", "Name"],
  rules_h_alt: ["英文", "Chinese"],
  rules_h_value: ["分值", "Value"],
  rules_wt_type: ["和法", "Win type"],
  rules_wt_m: ["倍数", "Multiplier"],
  rules_wt_bonus: ["和牌奖励", "Bonus"],
  rules_link: ["规则", "rule"],
  rules_tutorial: ["新手教程", "Guided first hand"],
  rules_first_visit: ["第一次来？跟着新手教程打一手牌。", "New here? Play a guided first hand."],
  rules_start: ["开始", "Start"],
  rules_dismiss: ["不用了", "No thanks"],
  rules_next_step: ["第 {0} / {1} 步", "Step {0} of {1}"],
  rules_wrong: ["这一步请按提示操作", "For this step, follow the prompt"],
  rules_done: ["你和牌了！这就是一手牌：摸、打、吃碰、听、和。", "You won! That is a hand: draw, discard, claim, ready, win."],
  rules_opponent: ["对手", "Opponent"],
  rules_you: ["你", "You"],
  rules_peng: ["碰", "Pung"],
  rules_ting: ["听", "Ready"],
  rules_hu: ["和", "Win"],
  // --- profile ---
  pf_title: ["我的主页", "My page"],
  pf_balance: ["欢乐豆余额", "Balance"],
  pf_stats: ["各玩法战绩", "Figures per family"],
  pf_no_hands: ["还没有结算过的牌局。", "No settled hands yet."],
  pf_family: ["玩法", "Family"],
  pf_hands: ["局数", "Hands"],
  pf_win_rate: ["胡牌率", "Win rate"],
  pf_self_drawn_rate: ["自摸率", "Self-drawn"],
  pf_deal_in_rate: ["放铳率", "Deal-in rate"],
  pf_average_fan: ["平均番数", "Average fan"],
  pf_beans: ["欢乐豆输赢", "Beans won"],
  pf_rating: ["等级分", "Rating"],
  pf_biggest: ["最大的一手", "Biggest hand"],
  pf_fan: ["{0} 番 · 回放", "{0} fan · replay"],
  pf_rated_hands: ["计分 {0} 局", "{0} rated hands"],
  pf_stats_note: ["胡牌率、放铳率按局数算；自摸率按胡牌次数算；平均番数是胡牌时的番数。等级分是技术评分的保守估计 μ − 3σ，只算欢乐豆场里两位注册玩家之间的对局；前 {0} 局为暂定，不显示分数。", "Win and deal-in rates are per hand; self-drawn is a share of the wins; the average fan is over the wins. The rating is the conservative estimate μ − 3σ of a skill rating (openskill), from hands between two registered players in bean rooms; it is provisional, and not shown as a number, for the first {0} hands."],
  pf_provisional: ["暂定（{0}/{1} 局）", "provisional ({0} of {1} hands)"],
  pf_bean_history: ["欢乐豆走势", "Beans over time"],
  pf_no_beans: ["还没有欢乐豆记录。", "No bean movements yet."],
  pf_chart_label: ["欢乐豆走势：从 {0} 到 {1}", "Beans over time: from {0} to {1}"],
  pf_leaderboard: ["排行榜", "Leaderboard"],
  pf_by_rating: ["按等级分", "By rating"],
  pf_by_beans: ["按欢乐豆", "By beans"],
  pf_board_note: ["按欢乐豆：该玩法各场次的净输赢，只显示所在区间（余额不公开）。游客不上榜。", "By beans: the net beans won in the family's rooms, shown as a range (balances stay private). Guests are not listed."],
  pf_board_note_rating: ["按等级分：欢乐豆场里注册玩家之间对局的技术评分（保守估计 μ − 3σ），前 {0} 局为暂定。游客不上榜。", "By rating: the skill rating from hands between registered players in bean rooms (the conservative estimate μ − 3σ), provisional for the first {0} hands. Guests are not listed."],
  pf_board_empty_rating: ["这个玩法还没有人有等级分。", "Nobody is rated in this family yet."],
  pf_board_empty_beans: ["这个玩法的欢乐豆场还没有人打过。", "Nobody has played this family's bean rooms yet."],
  pf_player: ["玩家", "Player"],
  pf_all: ["全部", "All"],
  pf_f_family: ["玩法", "Family"],
  pf_f_room: ["场次", "Room"],
  pf_f_result: ["结果", "Result"],
  pf_f_opponent: ["对手名字", "Opponent's name"],
  pf_filter: ["筛选", "Filter"],
  pf_no_match: ["没有符合筛选条件的牌局。", "No game matches the filter."],
  pf_clear_filter: ["清除筛选", "Clear the filter"],
  pf_room_computer: ["人机对战", "Against the computer"],
  pf_room_private: ["好友房", "Private tables"],
  pf_tier_novice: ["新手场", "Novice"],
  pf_tier_normal: ["普通场", "Normal"],
  pf_tier_junior: ["初级场", "Junior"],
  pf_tier_intermediate: ["中级场", "Intermediate"],
  pf_tier_senior: ["高级场", "Senior"],
  pf_win: ["胜", "won"],
  pf_loss: ["负", "lost"],
  pf_draw: ["荒庄", "drawn"],
  pf_computer: ["电脑", "Computer"],
  pf_coach: ["复盘统计", "Review profile"],
  pf_coach_note: ["大师复盘你的每一手牌（注册玩家，牌局结束后自动进行）：与大师一致的比例、恶手率和每手期望损失。", "The Master reviews every hand you finish (registered players, after each hand): how often you play its move, your bad-move rate and the points you give away per hand."],
  pf_coach_none: ["还没有复盘过的牌局。打完一手后这里会出现统计。", "No reviewed hands yet. Finish a hand and your figures appear here."],
  pf_coach_reviewed: ["已复盘 {0} 手", "{0} hands reviewed"],
  pf_coach_trend: ["走势：每点是截至该手的最近 {0} 手的数值，从旧到新。", "Trend: each point is the figure over the {0} hands up to that one, oldest first."],
  pf_cw_last: ["最近 {0} 手", "Last {0}"],
  pf_cf_match_rate: ["与大师一致", "Match with the Master"],
  pf_cf_bad_rate: ["恶手率", "Bad-move rate"],
  pf_cf_loss_per_hand: ["每手期望损失（{0}）", "Expected loss per hand ({0})"],
  pf_cf_hand: ["第 {0} 手", "hand {0}"],
  pf_cf_window: ["{0} 手", "{0} hands"],
  pf_cc_title: ["失分最多的类别（最近 200 手）", "Where you lose most (last 200 hands)"],
  pf_cc_loss: ["每手 {0} {2} · {1} 次决策", "{0} a hand · {1} decisions"],
  pf_cc_none: ["没有失分的决策。", "No decision lost points."],
  pf_cr_level: ["你的下法最接近 {0}", "Your play is closest to {0}"],
  pf_cr_between: ["你的下法介于 {0} 和 {1} 之间", "Your play lies between {0} and {1}"],
  pf_cr_few: ["手数不足：已复盘 {0} 手，满 {1} 手后评定水平", "Not enough hands: {0} reviewed, a level is given from {1}"],
  pf_relief: ["救济豆", "Relief beans"],
  pf_relief_rules: ["注册玩家的欢乐豆少于 {0} 时，每天（UTC）可以领一次，补足到 {1}。", "A registered player below {0} beans may claim relief once a day (UTC): it tops the balance up to {1}."],
  pf_relief_not_now: ["你的欢乐豆不少于 {0}，现在不能领。", "You hold {0} beans or more: nothing to claim now."],
  // --- ranks (段位, erren.server.ranks) ---
  rk_title: ["段位", "Rank"],
  rk_guest: ["游客没有段位：注册后在欢乐豆场对局即可上段。", "Guests have no rank: register and play the bean rooms to climb the ladder."],
  rk_none: ["还没有段位：在欢乐豆场打一局就从新人一级开始。", "No rank yet: one hand in a bean room starts you at Newcomer I."],
  rk_carried: ["本赛季还没打：段位由上赛季降三级继承。", "Not played this season yet: carried from last season, three steps down."],
  rk_note: ["欢乐豆场每局按场次和胜负加减段位分，场次越高涨跌越大，逃跑扣得最多；段位分满了升级，扣到 0 以下降级，每个段位的一级有保护不会掉段。每个赛季开始时降三级。", "Every bean-room hand moves your rank points (PT) by the room and the result: higher rooms swing more, an escape costs the most. Reach the step's PT to go up, fall below 0 to go down; the first step of each rank is protected. Each season starts three steps lower."],
  rk_pt: ["段位分", "PT"],
  rk_points: ["{0} / {1} 段位分", "{0} / {1} PT"],
  rk_points_top: ["{0} 段位分", "{0} PT"],
  rk_promoted: ["▲ 升级", "▲ Promoted"],
  rk_demoted: ["▼ 降级", "▼ Demoted"],
  rk_protected: ["段位保护：不掉段", "Protected: no demotion"],
  rk_history_title: ["段位变化", "Rank changes"],
  rk_no_history: ["本赛季还没有段位变化。", "No rank change this season yet."],
  rk_board: ["段位榜", "Rank leaderboard"],
  rk_board_note: ["按段位和段位分排名，只列出该赛季在这个玩法的欢乐豆场打过牌的注册玩家。往届赛季按结束时的段位。", "By rank, then PT: registered players who played the family's bean rooms that season. Past seasons as they ended."],
  rk_board_empty: ["这个赛季还没有人在这个玩法上段。", "Nobody has a rank in this family this season yet."],
  rk_rank: ["段位", "Rank"],
  rk_season: ["第 {0} 赛季 {1}–{2}", "Season {0}, {1}–{2}"],
  rk_season_now: ["第 {0} 赛季（当前）{1}–{2}", "Season {0} (now), {1}–{2}"],
  rk_season_pick: ["赛季", "Season"],
  rk_unranked: ["友人房不计段位", "Friend tables don't count for rank"],
  // --- cluster ---
  "err_cluster-unavailable": ["匹配暂时不可用：集群的缓存服务器没有响应，请稍后再试", "Matchmaking is unavailable right now (the cluster's Redis does not answer); try again later"],
  "err_invites-unavailable": ["邀请暂时发不出去：集群的缓存服务器没有响应，请稍后再试", "Invites cannot be sent right now (the cluster's Redis does not answer); try again later"],
  "err_moved": ["这一桌已转到另一台服务器继续：请重新连接", "This table is played on another server now: reconnect"],
  closed_moved: ["这一桌已转到另一台服务器继续：请重新连接，牌局接着打。", "This table is played on another server now: reconnect and the hand goes on."],
  // --- relay ---
  "err_relay-unavailable": ["暂时连不上这一桌所在的服务器：正在重新连接，牌局接着打", "The server that plays your table cannot be reached right now: reconnecting, and the hand goes on"],
  // --- webmoved ---
  conn_moving: ["这一桌正在转到另一台服务器，马上接着打…", "The table is moving to another server…"],
  moved_unsure: ["你的操作「{0}」不一定打出了：这一桌没能在另一台服务器上接着打。", "Your move “{0}” may not have been played: the table did not come back on another server."],
};

/** The browser's language: Chinese for the first of its languages that is Chinese or English
 * when it is Chinese, English otherwise (a browser in neither reads English).
 * @returns {Lang} */
export function browserLang() {
  const wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || ""];
  for (const tag of wanted) {
    const code = String(tag).toLowerCase();
    if (code.startsWith("zh")) return "zh";
    if (code.startsWith("en")) return "en";
  }
  return "en";
}

/** The player's choice (kept once he switches), else the browser's language. */
const chosen = localStorage.getItem("erren.lang");
/** @type {Lang} */
let lang = chosen === "zh" || chosen === "en" ? chosen : browserLang();

/** @returns {Lang} */
export function getLang() {
  return lang;
}

/** The language the player chose in this browser, or null while it follows the browser's.
 * @returns {Lang|null} */
export function chosenLang() {
  const kept = localStorage.getItem("erren.lang");
  return kept === "zh" || kept === "en" ? kept : null;
}

/** @param {Lang} value */
function applyLang(value) {
  lang = value;
  document.documentElement.lang = value === "zh" ? "zh-CN" : "en";
}

/** @type {(() => void)[]} */
const langListeners = [];

/** Call `f` after every switch of the language: for what stays on screen outside the screen
 * the router draws again (the toasts). @param {() => void} f */
export function onLangChange(f) {
  langListeners.push(f);
}

/** The player switches the language: kept in this browser from now on. @param {Lang} value */
export function setLang(value) {
  applyLang(value);
  localStorage.setItem("erren.lang", value);
  for (const f of langListeners) f();
}

/** The `lang` attribute of a text in the other language (a name shown beside its
 * translation). @returns {string} */
export function otherLang() {
  return lang === "zh" ? "en" : "zh-CN";
}

/** An amount as every screen writes it, in either language: digits grouped by thousands and a
 * real minus sign (−2,000). @param {number} n @returns {string} */
export function amount(n) {
  const text = Math.abs(n).toLocaleString("en-US");
  return n < 0 ? `−${text}` : text;
}

/** A change, always signed: +1,000, −650, 0. @param {number} n @returns {string} */
export function change(n) {
  return n > 0 ? `+${amount(n)}` : amount(n);
}

/** A room's stake per one point of its family ("底注 50/番", "50 per point"), the unit from the
 * room's data. @param {number} stake @param {{zh: string, en: string}} unit @returns {string} */
export function stakeText(stake, unit) {
  return t("stake_per", amount(stake), lang === "zh" ? unit.zh : unit.en);
}

/** A family unit's word for many of it, in the page's language: 分 or 番 in Chinese, in English
 * `en_many` (the server's: "points", "fan"), or `en` where the unit has none.
 * @param {{zh: string, en: string, en_many?: string}} unit @returns {string} */
export function unitMany(unit) {
  return lang === "zh" ? unit.zh : unit.en_many || unit.en;
}

/** A family unit's word beside the figure `shown`: in English its name for exactly one ("1
 * point", "−1 point"), else `unitMany` ("3.40 points", "+40 fan").
 * @param {{zh: string, en: string, en_many?: string}} unit @param {string} shown @returns {string} */
export function unitWord(unit, shown) {
  return lang !== "zh" && /^[+−-]?1$/.test(shown) ? unit.en : unitMany(unit);
}

/** @param {string} key @param {...(string|number)} args @returns {string} */
export function t(key, ...args) {
  const row = S[key];
  let text = row ? row[lang === "zh" ? 0 : 1] : key;
  args.forEach((a, i) => {
    text = text.replace(`{${i}}`, String(a));
  });
  return text;
}

/** Both languages, Chinese first (for pattern names). @param {string} key @returns {string} */
export function both(key) {
  const row = S[key];
  return row ? `${row[0]} ${row[1]}` : key;
}

applyLang(lang);

/** The computer's levels, weakest first (their ids on the wire). */
export const LEVELS = ["novice", "normal", "strong", "master"];

/** A level's name in the player's language (入门, Strong). @param {string} level @returns {string} */
export function levelName(level) {
  return LEVELS.includes(level) ? t(`lv_${level}`) : level;
}

/** The computer's seat name at a level: 电脑·高手, Computer (Strong). @param {string} level @returns {string} */
export function computerName(level) {
  return t("computer_at", levelName(level));
}

/** The i18n key of the name of each kind of table a game list names (a family adds its own:
 * `nameTableKind`). @type {Record<string, string>} */
const KIND_NAMES = { computer: "vs_computer", private: "private" };

/** Name a family's own kind of table (families.js). @param {string} kind @param {string} key the i18n key of its name */
export function nameTableKind(kind, key) {
  KIND_NAMES[kind] = key;
}

/** Where a game was played, from the id a game list gives: a bean room's tier
 * ("guobiao-2p/novice" → 新手场, "Novice room") or a table's kind ("computer" → 人机对战);
 * ids never show. @param {string} id @returns {string} */
export function roomIdName(id) {
  const [family, tier] = String(id).split("/");
  if (tier === undefined) {
    const kind = KIND_NAMES[family];
    return kind ? t(kind) : t("room_other");
  }
  return S[`tier_${tier}`] ? t(`tier_${tier}`) : t("room_other");
}

/** A player's name as shown: a guest's "guest-1a2b3c4d" reads 游客 1a2b3c4d / Guest 1a2b3c4d.
 * @param {string} name @returns {string} */
export function playerName(name) {
  return name.startsWith("guest-") ? t("guest_name", name.slice(6)) : name;
}

/** Whether a string has a row (in both languages). @param {string} key @returns {boolean} */
export function known(key) {
  return key in S;
}

/** Add rows only a family uses (its module's `words`: families.js); a shared row is kept.
 * @param {Record<string, [string, string]>} rows */
export function addWords(rows) {
  for (const [key, row] of Object.entries(rows)) if (!(key in S)) S[key] = row;
}

/**
 * An error for the player in his language, from its stable code and params ({name} is filled
 * from `params.name`, numbers with thousands separators). An engine refusal of a move (its
 * params carry the `action`) whose rule has no row reads "not legal now"; any other unknown
 * code "something went wrong (code)": the server's English sentence is never shown.
 * @param {string|null|undefined} code @param {string} [_message] the server's sentence (logs only)
 * @param {Record<string, unknown>} [params]
 * @returns {string}
 */
export function errorText(code, _message, params = {}) {
  const key = `err_${code}`;
  const p = params || {};
  if (!code || !S[key]) return p.action !== undefined ? t("err_rule") : t("err_unknown", String(code || "?"));
  let text = t(key);
  for (const [name, value] of Object.entries(p)) {
    text = text.replace(`{${name}}`, typeof value === "number" ? value.toLocaleString("en-US") : String(value));
  }
  return text;
}

/** What went wrong, for the player: an ApiError by its code and params, else a generic line.
 * @param {unknown} e @returns {string} */
export function failure(e) {
  const err = /** @type {{code?: string|null, params?: Record<string, unknown>}} */ (e && typeof e === "object" ? e : {});
  return err.code ? errorText(err.code, "", err.params || {}) : t("err_network");
}
