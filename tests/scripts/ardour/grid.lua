-- SPDX-License-Identifier: ISC
--
-- Notes in a scale on the song's sixteenths, in a real Ardour session that
-- is saved and reopened, headless (ardour7-lua, the Dummy audio backend at
-- 48 kHz, the session's default 120 bpm).  Run by tests/scripts/test_ardour_grid.sh:
--
--   ardour7-lua grid.lua create URI DIR GRID
--     makes a session in DIR with a MIDI track: the plugin URI with its
--     preset "C-minor pentatonic flips" and note_grid GRID (0 off, 3 1/16),
--     then the test's note recorder (pendula_note_times.lua); rolls the
--     transport 4 s; saves.
--   ardour7-lua grid.lua reload URI DIR GRID
--     reopens the session, checks the note settings came back, rolls 4 s.
--
-- Both print "notes played: N ..." and "note offsets: F ..." (each note-on's
-- frame after the first one's, modulo a sixteenth, 6000 frames), "ok: ..."
-- or "FAIL: ..." for their steps, and "ALL OK" or "N FAILED" last; the
-- shell script judges the notes and offsets.

local phase, uri, dir, grid = arg[1], arg[2], arg[3], tonumber(arg[4])
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "lib.lua")
local check, control = T.check, T.control

T.start_engine()

local s, tl, tr, p, rec
-- the preset's note settings, which the reopened session must have
local want = { ["Note scale"] = 5, ["Scale root"] = 0, ["Lowest note"] = 48, ["Highest note"] = 72,
	["Note grid"] = grid }
if phase == "create" then
	s = create_session(dir, "pendula", 48000)
	check(s ~= nil, "session created")
	tl, tr = T.midi_track(s, "Pendula")
	p = ARDOUR.LuaAPI.new_plugin(s, uri, ARDOUR.PluginType.LV2, "")
	check(not p:isnil(), "plugin " .. uri .. " instantiated")
	if p:isnil() then os.exit(1) end
	tr:add_processor_by_index(p, 0, nil, true)
	rec = ARDOUR.LuaAPI.new_luaproc(s, "Pendula test note times")
	check(not rec:isnil(), "the test's note recorder (pendula_note_times.lua) loads")
	if rec:isnil() then os.exit(1) end
	tr:add_processor_by_index(rec, 1, nil, true)
	local pi = p:to_insert()
	local pl = pi:plugin(0)
	T.load_preset(pl, "C-minor pentatonic flips")
	local g = control(pl, "Note grid")
	check(g ~= nil and ARDOUR.LuaAPI.set_plugin_insert_param(pi, g, grid), "note_grid set to " .. grid)
	pi, pl = nil, nil
else
	s = load_session(dir, "pendula")
	check(s ~= nil, "session reopened")
	tr = s:route_by_name("Pendula")
	p = tr:nth_plugin(0)
	rec = tr:nth_plugin(1)
	check(not p:isnil() and not rec:isnil(), "the plugin and the recorder came back")
	if p:isnil() or rec:isnil() then os.exit(1) end
end

local pi = p:to_insert()
local pl = pi:plugin(0)
for label, v in pairs(want) do
	local n = control(pl, label)
	local got = n and ARDOUR.LuaAPI.get_plugin_insert_param(pi, n, true)
	check(got ~= nil and math.abs(got - v) < 1e-6, label .. " is " .. tostring(got))
end

s:request_transport_speed(1.0, ARDOUR.TransportRequestSource.TRS_UI)
s:request_roll(ARDOUR.TransportRequestSource.TRS_UI)
ARDOUR.LuaAPI.usleep(4000000)
check(s:transport_sample() > 96000, "the transport rolled (" .. s:transport_sample() .. " samples)")
local shm = rec:to_insert():plugin(0):to_luaproc():shmem()
local count = shm:atomic_get_int(0)
local notes, offsets = {}, {}
for n = 0, 127 do
	if (shm:atomic_get_int(1 + (n >> 5)) >> (n & 31)) & 1 == 1 then notes[#notes + 1] = n end
end
local first = shm:atomic_get_int(5)
for i = 0, math.min(count, 64) - 1 do
	offsets[#offsets + 1] = (shm:atomic_get_int(5 + i) - first) % 6000
end
print("note-ons: " .. count)
print("notes played: " .. table.concat(notes, " "))
print("note offsets: " .. table.concat(offsets, " "))
s:request_stop(false, false, ARDOUR.TransportRequestSource.TRS_UI)
ARDOUR.LuaAPI.usleep(200000)
if phase == "create" then s:save_state("", false, false, false, false, false) end
-- Lua must let go of the routes before the session closes (session.lua).
tl, tr, p, rec, pi, pl, shm = nil, nil, nil, nil, nil, nil, nil
collectgarbage()
close_session()
T.done()
