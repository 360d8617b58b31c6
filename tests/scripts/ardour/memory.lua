-- SPDX-License-Identifier: ISC
--
-- A memory stored from the host and recalled by a note, in a real Ardour
-- session, headless (ardour7-lua, the Dummy audio backend at 48 kHz).  Run
-- by tests/scripts/test_ardour_memory.sh:
--
--   ardour7-lua memory.lua URI DIR store|nostore
--     makes a session in DIR with a MIDI track: the test's recall note
--     (pendula_recall_note.lua: note 60, 2.5 s into the roll), the plugin
--     URI with its preset "Memory lanes" (mem_note 60, mem_slot 1, glide
--     30 ms), then the test's recorder (pendula_cc_times.lua); rolls the
--     transport 4 s.  With "store", mem_store goes to 1 about 1 s into the
--     roll and back to 0 (as a click on the button or an automation lane
--     does), so the note recalls that moment.
--
-- Then it looks for the replay: the control changes (theta1 on CC 1) from
-- 0.1 s after the note on, for 0.5 s, must equal, value for value and
-- frame for frame, those of an earlier stretch; it prints "replay of the
-- frame S: N control changes" or "no replay", "ok: ..." or "FAIL: ..." for
-- its steps, and "ALL OK" or "N FAILED" last.  The shell script judges.

local uri, dir, mode = arg[1], arg[2], arg[3]
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "lib.lua")
local check, control = T.check, T.control

T.start_engine()

local s = create_session(dir, "pendula", 48000)
check(s ~= nil, "session created")
local tl, tr = T.midi_track(s, "Pendula")
local note = ARDOUR.LuaAPI.new_luaproc(s, "Pendula test recall note")
local p = ARDOUR.LuaAPI.new_plugin(s, uri, ARDOUR.PluginType.LV2, "")
local rec = ARDOUR.LuaAPI.new_luaproc(s, "Pendula test CC times")
check(not note:isnil() and not p:isnil() and not rec:isnil(),
	"the note source, plugin " .. uri .. " and the recorder load")
if note:isnil() or p:isnil() or rec:isnil() then os.exit(1) end
tr:add_processor_by_index(note, 0, nil, true)
tr:add_processor_by_index(p, 1, nil, true)
tr:add_processor_by_index(rec, 2, nil, true)
local pi = p:to_insert()
local pl = pi:plugin(0)
T.load_preset(pl, "Memory lanes")
local store = control(pl, "Store memory")
check(store ~= nil, "the plugin has a Store memory control")

s:request_transport_speed(1.0, ARDOUR.TransportRequestSource.TRS_UI)
s:request_roll(ARDOUR.TransportRequestSource.TRS_UI)
ARDOUR.LuaAPI.usleep(1000000)
if mode == "store" then
	check(ARDOUR.LuaAPI.set_plugin_insert_param(pi, store, 1), "mem_store to 1")
	ARDOUR.LuaAPI.usleep(200000)
	check(ARDOUR.LuaAPI.set_plugin_insert_param(pi, store, 0), "mem_store back to 0")
	ARDOUR.LuaAPI.usleep(2800000)
else
	ARDOUR.LuaAPI.usleep(3000000)
end
check(s:transport_sample() > 3 * 48000, "the transport rolled (" .. s:transport_sample() .. " samples)")
s:request_stop(false, false, ARDOUR.TransportRequestSource.TRS_UI)
ARDOUR.LuaAPI.usleep(200000)

local shm = rec:to_insert():plugin(0):to_luaproc():shmem()
local n = math.min(shm:atomic_get_int(0), 4000)
local r = shm:atomic_get_int(1)
local ev = {}
for i = 0, n - 1 do
	local w = shm:atomic_get_int(2 + i)
	ev[#ev + 1] = { w // 128, w % 128 }
end
print("control changes: " .. n .. ", recall note at frame " .. r)
check(r > 0, "the recall note reached the recorder")
-- the window after the note and its glide, and every earlier stretch
local from, to = r + 4800, r + 4800 + 24000
local win = {}
for _, e in ipairs(ev) do
	if e[1] >= from and e[1] < to then win[#win + 1] = e end
end
local at = {}
for _, e in ipairs(ev) do at[e[1]] = e[2] end
local best, best_shift = 0, nil
if #win > 0 then
	for _, e in ipairs(ev) do
		local d = win[1][1] - e[1]
		if e[1] < r and e[2] == win[1][2] and d > 4800 then
			local same = 0
			for _, w in ipairs(win) do
				if at[w[1] - d] == w[2] then same = same + 1 end
			end
			-- and nothing extra in the earlier stretch
			local earlier = 0
			for _, x in ipairs(ev) do
				if x[1] >= from - d and x[1] < to - d then earlier = earlier + 1 end
			end
			if same == #win and earlier == #win and same > best then best, best_shift = same, d end
		end
	end
end
if best_shift then
	print(string.format("replay of the frame %d: %d control changes", r - best_shift, best))
else
	print("no replay (" .. #win .. " control changes after the note)")
end
note, p, rec, pi, pl, tl, tr, shm = nil, nil, nil, nil, nil, nil, nil, nil
collectgarbage()
close_session()
T.done()
