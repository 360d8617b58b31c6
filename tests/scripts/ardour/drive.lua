-- SPDX-License-Identifier: ISC
--
-- A drum track shakes Pendula through Ardour's sidechain, headless
-- (ardour7-lua, the Dummy audio backend).  Run by tests/scripts/test_ardour_drive.sh:
--
--   ardour7-lua drive.lua URI DIR kick|none
--     makes a session in DIR with an audio track "Kick" playing the test's
--     kick (pendula_kick_source.lua) and a MIDI track with the plugin URI,
--     its preset "Plucked chain" (a chain hanging still) and drive_gain 20,
--     then the test's MIDI counter (pendula_midi_count.lua).  The plugin
--     gets a sidechain input, its audio input pin (drive) is fed from it,
--     and (with "kick") a send from the kick track feeds the sidechain, as
--     docs/GUIDE.md ("Shaking it with sound") tells a user to do.  Rolls the
--     transport 3.5 s and prints "MIDI counts: NOTE_ON NOTE_OFF CC".
--
-- Prints "ok: ..." or "FAIL: ..." for its steps and "ALL OK" or "N FAILED" last.

local uri, dir, mode = arg[1], arg[2], arg[3]
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "lib.lua")
local check, control = T.check, T.control

T.start_engine()

local s = create_session(dir, "pendula", 48000)
check(s ~= nil, "session created")
local midi, audio = ARDOUR.DataType("midi"), ARDOUR.DataType("audio")

local kl = s:new_audio_track(1, 2, nil, 1, "Kick", ARDOUR.PresentationInfo.max_order,
	ARDOUR.TrackMode.Normal, true)
local kick_tr = kl:front()
kick_tr:monitoring_control():set_value(ARDOUR.MonitorChoice.MonitorInput, PBD.GroupControlDisposition.NoGroup)
local kick = ARDOUR.LuaAPI.new_luaproc(s, "Pendula test kick")
check(not kick:isnil(), "the test's kick (pendula_kick_source.lua) loads")
if kick:isnil() then os.exit(1) end
kick_tr:add_processor_by_index(kick, 0, nil, true)

local tl, tr = T.midi_track(s, "Pendula")
local p = ARDOUR.LuaAPI.new_plugin(s, uri, ARDOUR.PluginType.LV2, "")
check(not p:isnil(), "plugin " .. uri .. " instantiated")
if p:isnil() then os.exit(1) end
tr:add_processor_by_index(p, 0, nil, true)
local counter = ARDOUR.LuaAPI.new_luaproc(s, "Pendula test MIDI counter")
check(not counter:isnil(), "the test's MIDI counter loads")
if counter:isnil() then os.exit(1) end
tr:add_processor_by_index(counter, 1, nil, true)

local pi = p:to_insert()
local pl = pi:plugin(0)
T.load_preset(pl, "Plucked chain")
local gain_n = control(pl, "Drive gain")
check(gain_n ~= nil and ARDOUR.LuaAPI.set_plugin_insert_param(pi, gain_n, 20), "drive_gain set to 20")

-- The sidechain, as Pin Connections > "Add Sidechain Input" makes it;
-- Ardour leaves Pendula's audio input pin (drive) unconnected until the
-- user wires it to the sidechain (without that the drive stays silent:
-- tried), so the test wires it as the guide says.
check(tr:add_sidechain(p), "a sidechain input added to Pendula")
local sc = pi:sidechain_input()
check(not sc:isnil() and sc:n_ports():n_audio() == 1, "the sidechain has one audio port")
local cm = ARDOUR.ChanMapping()
cm:set(audio, 0, 0)
cm:set(midi, 0, 0)
pi:set_input_map(0, cm)
check(pi:input_map(0):get(audio, 0) == 0, "Pendula's drive pin reads the sidechain")
if mode == "kick" then
	local send = ARDOUR.LuaAPI.new_send(s, kick_tr, kick_tr:amp())
	check(not send:isnil(), "a send on the kick track")
	local so = send:to_send():output()
	check(so:nth(0):connect(sc:nth(0):name()) == 0, "the send feeds Pendula's sidechain")
	send = nil
end

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
kl, kick_tr, kick, tl, tr, p, pi, pl, counter, sc, cm, shm = nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil
collectgarbage()
close_session()
T.done()
