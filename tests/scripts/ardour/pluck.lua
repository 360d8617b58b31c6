-- SPDX-License-Identifier: ISC
--
-- Plucking Pendula from a MIDI track in a real Ardour session, headless
-- (ardour7-lua, the Dummy audio backend).  Run by tests/scripts/test_ardour_pluck.sh:
--
--   ardour7-lua pluck.lua URI DIR notes|none
--     makes a session in DIR with one MIDI track: (with "notes") the test's
--     note source (pendula_note_source.lua), the plugin URI with its preset
--     "Plucked chain", then the test's MIDI counter (pendula_midi_count.lua);
--     rolls the transport for 3.5 s and prints what reached the counter as
--     "MIDI counts: NOTE_ON NOTE_OFF CC".
--
-- The shell script compares the two runs; this one prints "ok: ..." or
-- "FAIL: ..." for its own steps and "ALL OK" or "N FAILED" last.

local uri, dir, mode = arg[1], arg[2], arg[3]
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "lib.lua")
local check, control = T.check, T.control

T.start_engine()

local s = create_session(dir, "pendula", 48000)
check(s ~= nil, "session created")
local tl, tr = T.midi_track(s, "Pendula")
local at = 0
local src = nil
if mode == "notes" then
	src = ARDOUR.LuaAPI.new_luaproc(s, "Pendula test note source")
	check(not src:isnil(), "the test's note source (pendula_note_source.lua) loads")
	if src:isnil() then os.exit(1) end
	tr:add_processor_by_index(src, at, nil, true)
	at = at + 1
end
local p = ARDOUR.LuaAPI.new_plugin(s, uri, ARDOUR.PluginType.LV2, "")
check(not p:isnil(), "plugin " .. uri .. " instantiated")
if p:isnil() then os.exit(1) end
tr:add_processor_by_index(p, at, nil, true)
local counter = ARDOUR.LuaAPI.new_luaproc(s, "Pendula test MIDI counter")
check(not counter:isnil(), "the test's MIDI counter (pendula_midi_count.lua) loads")
if counter:isnil() then os.exit(1) end
tr:add_processor_by_index(counter, at + 1, nil, true)

local pl = p:to_insert():plugin(0)
T.load_preset(pl, "Plucked chain")

s:request_transport_speed(1.0, ARDOUR.TransportRequestSource.TRS_UI)
s:request_roll(ARDOUR.TransportRequestSource.TRS_UI)
ARDOUR.LuaAPI.usleep(3500000)
check(s:transport_sample() > 96000, "the transport rolled (" .. s:transport_sample() .. " samples)")
local shm = counter:to_insert():plugin(0):to_luaproc():shmem()
local on, off, cc = shm:atomic_get_int(0), shm:atomic_get_int(1), shm:atomic_get_int(2)
print("MIDI after Pendula: " .. on .. " note-on, " .. off .. " note-off, " .. cc .. " control changes")
print("MIDI counts: " .. on .. " " .. off .. " " .. cc)
s:request_stop(false, false, ARDOUR.TransportRequestSource.TRS_UI)
ARDOUR.LuaAPI.usleep(200000)
-- Lua must let go of the routes before the session closes (session.lua).
tl, tr, p, counter, src, pl, shm = nil, nil, nil, nil, nil, nil, nil
collectgarbage()
close_session()
T.done()
