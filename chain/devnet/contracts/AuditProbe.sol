// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {SafeTransfer} from "./Interfaces.sol";

/// @dev The Uniswap V2 pair functions the probe uses, on any V2 fork.
interface IAuditPair {
    function token0() external view returns (address);
    function token1() external view returns (address);
    function getReserves() external view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast);
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external;
}

/// @title AuditProbe: a buy-then-sell simulation of one Uniswap V2 pool, run inside eth_call. NEVER DEPLOYED.
/// @notice chain/evm's Reader places this contract's RUNTIME bytecode at an unused address with an eth_call
///         state override (code, plus a native balance of at least amountIn) and calls audit. No constructor runs,
///         so the contract has no immutables and no initialised storage; nothing it does outlives the eth_call.
///
///         audit(pair, token, wrappedNative, factory, amountIn):
///         1. wraps amountIn of the native coin (wrappedNative.deposit);
///         2. if the pair's other token (the quote) is not the wrapped native, buys the quote first on
///            factory.getPair(wrappedNative, quote) ("no route" when there is no such pair);
///         3. buys `token` on `pair` with all the quote: expectedBuy is the amount asked from the pair per its
///            reserves, receivedBuy what arrived (balanceOf): the difference is the buy tax;
///         4. sells everything back: sentSell is transferred to the pair, pairReceivedSell is what the pair's
///            balance grew by (the difference is the sell tax), then the quote is swapped out per reserves and
///            quoteOut is what arrived.
///         It trades on the pairs directly (transfer in, then swap), never through a router, so it works on any
///         V2 fork whose pairs follow the Uniswap V2 pair ABI.
///
///         Amounts out use Uniswap V2's 0.3% fee formula, out = in * 997 * reserveOut / (reserveIn * 1000 + in * 997),
///         the fee of our devnet pairs and of Uniswap V2. On a fork with a lower fee the pair accepts the swap (it
///         keeps a little more); on a fork with a higher fee the pair's K check rejects it and the buy shows up
///         as failed (buyOk false), not as a honeypot.
///
///         audit never reverts: each step that changes state runs as a self-call caught with try/catch (so a
///         failing token cannot take the result down, and a failed step's effects are rolled back) and every
///         view is a low-level staticcall whose return data is length-checked. The result says how far it got.
contract AuditProbe {
    using SafeTransfer for address;

    struct Result {
        bool ran; // false: the simulation could not start (reason says why); the amounts below are then zero
        string reason; // empty when the buy and the sell both worked; otherwise the first step that failed
        bool buyOk;
        bool sellOk;
        uint256 quoteIn; // quote token paid into the pair for the buy
        uint256 expectedBuy; // token asked from the pair per reserves: what arrives without a buy tax
        uint256 receivedBuy; // token that arrived (balanceOf delta)
        bool sellTransferOk; // the transfer back to the pair worked, so pairReceivedSell is measured
        uint256 sentSell; // token transferred back to the pair: everything the probe held
        uint256 pairReceivedSell; // growth of the pair's token balance: what arrives without a sell tax is sentSell
        uint256 quoteOut; // quote token that arrived for the sell (balanceOf delta)
        uint256 blockNumber; // block.number the simulation ran at
    }

    function audit(address pair, address token, address wrappedNative, address factory, uint256 amountIn)
        external
        returns (Result memory r)
    {
        r.blockNumber = block.number;
        address quote;
        address route;
        (quote, route, r.reason) = _route(pair, token, wrappedNative, factory);
        if (bytes(r.reason).length != 0) return r;
        r.reason = _start(r, wrappedNative, quote, route, amountIn);
        if (bytes(r.reason).length != 0) return r;
        r.ran = true;
        r.reason = _buyAndSell(r, pair, token, quote);
    }

    /// @dev Finds the quote token (the pair's other token) and, when it is not the wrapped native, the pair
    ///      that sells it for the wrapped native. A non-empty reason means the simulation cannot run.
    function _route(address pair, address token, address wrappedNative, address factory)
        private
        view
        returns (address quote, address route, string memory reason)
    {
        (bool ok0, address t0) = _address(pair, abi.encodeCall(IAuditPair.token0, ()));
        (bool ok1, address t1) = _address(pair, abi.encodeCall(IAuditPair.token1, ()));
        if (!ok0 || !ok1) return (quote, route, "not a Uniswap V2 pair");
        if (token != t0 && token != t1) return (quote, route, "token is not in the pair");
        if (token == wrappedNative) return (quote, route, "token is the wrapped native");
        quote = token == t0 ? t1 : t0;
        if (quote != wrappedNative) {
            bool ok;
            (ok, route) = _address(factory, abi.encodeWithSignature("getPair(address,address)", wrappedNative, quote));
            if (!ok || route == address(0)) {
                return (quote, route, "no route: no pair of the wrapped native and the quote token");
            }
        }
    }

    /// @dev Steps 1 and 2: wraps amountIn and buys the quote token with it on route (if any); sets r.quoteIn.
    function _start(Result memory r, address wrappedNative, address quote, address route, uint256 amountIn)
        private
        returns (string memory reason)
    {
        (bool wrapped,) = wrappedNative.call{value: amountIn}(abi.encodeWithSignature("deposit()"));
        (bool ok, uint256 held) = _balance(wrappedNative, address(this));
        if (!wrapped || !ok || held < amountIn || amountIn == 0) return "wrapping the native coin failed";
        r.quoteIn = amountIn;
        if (route == address(0)) return "";
        try this.pay(wrappedNative, route, amountIn) {}
        catch {
            return "route swap failed";
        }
        try this.take(route, wrappedNative, quote) returns (uint256, uint256 got) {
            r.quoteIn = got;
        } catch {
            return "route swap failed";
        }
        if (r.quoteIn == 0) return "route swap returned nothing";
    }

    /// @dev Steps 3 and 4: buys token with r.quoteIn of quote, then sells everything back.
    function _buyAndSell(Result memory r, address pair, address token, address quote)
        private
        returns (string memory reason)
    {
        try this.pay(quote, pair, r.quoteIn) {}
        catch {
            return "buy reverted";
        }
        try this.take(pair, quote, token) returns (uint256 expected, uint256 received) {
            (r.expectedBuy, r.receivedBuy) = (expected, received);
        } catch {
            return "buy reverted";
        }
        r.buyOk = true;

        (bool ok, uint256 balance) = _balance(token, address(this));
        if (!ok || balance == 0) return "the buy left nothing to sell";
        r.sentSell = balance;
        try this.pay(token, pair, balance) returns (uint256 arrived) {
            (r.sellTransferOk, r.pairReceivedSell) = (true, arrived);
        } catch {
            return "sell reverted: the transfer to the pair failed";
        }
        try this.take(pair, token, quote) returns (uint256, uint256 got) {
            r.quoteOut = got;
        } catch {
            return "sell reverted: the swap failed";
        }
        r.sellOk = true;
    }

    /// @notice Step (self-call only): transfers value of tokenIn to pair; returns how much the pair's balance grew.
    function pay(address tokenIn, address pair, uint256 value) external returns (uint256 arrived) {
        require(msg.sender == address(this), "AuditProbe: self-call only");
        uint256 before = _mustBalance(tokenIn, pair);
        tokenIn.safeTransfer(pair, value);
        arrived = _mustBalance(tokenIn, pair) - before;
    }

    /// @notice Step (self-call only): swaps what the pair holds of tokenIn beyond its reserve for tokenOut, to this
    ///         contract. expected is the amount out per reserves (0.3% fee), received what arrived.
    function take(address pair, address tokenIn, address tokenOut) external returns (uint256 expected, uint256 received) {
        require(msg.sender == address(this), "AuditProbe: self-call only");
        (uint256 reserve0, uint256 reserve1,) = IAuditPair(pair).getReserves();
        bool inIs0 = tokenIn == IAuditPair(pair).token0();
        (uint256 reserveIn, uint256 reserveOut) = inIs0 ? (reserve0, reserve1) : (reserve1, reserve0);
        uint256 amountIn = _mustBalance(tokenIn, pair) - reserveIn;
        expected = getAmountOut(amountIn, reserveIn, reserveOut);
        require(expected > 0, "AuditProbe: nothing to swap");
        uint256 before = _mustBalance(tokenOut, address(this));
        IAuditPair(pair).swap(inIs0 ? 0 : expected, inIs0 ? expected : 0, address(this), "");
        received = _mustBalance(tokenOut, address(this)) - before;
    }

    /// @notice Uniswap V2's amount out after the 0.3% fee (997/1000).
    function getAmountOut(uint256 amountIn, uint256 reserveIn, uint256 reserveOut) public pure returns (uint256) {
        if (amountIn == 0 || reserveIn == 0 || reserveOut == 0) return 0;
        uint256 amountInWithFee = amountIn * 997;
        return (amountInWithFee * reserveOut) / (reserveIn * 1000 + amountInWithFee);
    }

    function _mustBalance(address token, address holder) private view returns (uint256 balance) {
        bool ok;
        (ok, balance) = _balance(token, holder);
        require(ok, "AuditProbe: balanceOf failed");
    }

    function _balance(address token, address holder) private view returns (bool, uint256) {
        return _word(token, abi.encodeWithSignature("balanceOf(address)", holder));
    }

    function _address(address target, bytes memory data) private view returns (bool, address) {
        (bool ok, uint256 w) = _word(target, data);
        if (!ok || w >> 160 != 0) return (false, address(0));
        return (true, address(uint160(w)));
    }

    /// @dev A staticcall returning one word; false when it reverts or returns less than 32 bytes (no code).
    function _word(address target, bytes memory data) private view returns (bool, uint256) {
        (bool ok, bytes memory ret) = target.staticcall(data);
        if (!ok || ret.length < 32) return (false, 0);
        return (true, abi.decode(ret, (uint256)));
    }
}
